// DIR/steps.csv and DIR/steps.jsonl of `watch` (docs/run-dir.md): one row per recorded step,
// layer, capture and tensor, with every statistics field and the step's loss; and, with
// --tensorboard, the same rows and every step's loss as TensorBoard scalars and histograms.
#pragma once
#include <string>
#include <vector>

#include "record/accumulate/layer_recording.h"
#include "rundir/step_rows.h"
#include "tensorboard/event_file.h"
#include "train/parameter_updates.h"

namespace modrec {

class StepSeries {
 public:
  // Creates both files under `dir`, headers written. Error(write_failed) when it cannot.
  // `events`: an event file for them too (--tensorboard); null: none.
  explicit StepSeries(const std::string& dir, EventFile* events = nullptr)
      : files_(dir), tensorboard_(events) {}

  // One recorded step: its layers' captures, then (per layer) its parameters' updates.
  void add(int64_t step, double loss, const std::vector<LayerRecording>& layers,
           const std::vector<ParameterUpdate>& updates);
  // Every step's loss, recorded or not (TensorBoard's "loss"; the files have it on each row).
  void add_loss(int64_t step, double loss);

 private:
  // `element`: the tensor's name in TensorBoard's tag (rundir::tensor_element).
  void write(const StepRow& row, const std::string& element);

  StepFiles files_;
  EventFile* tensorboard_;
};

}  // namespace modrec
