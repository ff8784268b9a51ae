// DIR/steps.csv and DIR/steps.jsonl of `watch` (docs/run-dir.md): one row per recorded step,
// layer, capture and tensor, with every statistics field and the step's loss.
#pragma once
#include <fstream>
#include <string>
#include <vector>

#include "record/accumulate/layer_recording.h"
#include "train/parameter_updates.h"

namespace modrec {

class StepSeries {
 public:
  // Creates both files under `dir`, headers written. Error(write_failed) when it cannot.
  explicit StepSeries(const std::string& dir);

  // One recorded step: its layers' captures, then (per layer) its parameters' updates.
  void add(int64_t step, double loss, const std::vector<LayerRecording>& layers,
           const std::vector<ParameterUpdate>& updates);

 private:
  struct Row;
  void write(const Row& row);

  std::string dir_;
  std::ofstream csv_, jsonl_;
};

}  // namespace modrec
