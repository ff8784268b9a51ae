// The record stage: runs the input batch by batch through the instrumented model, forward with
// the Recorder's hooks and backward, merges each pass's captures into the run's layers, and
// writes the recording directory (docs/run-dir.md).
#pragma once
#include <ATen/core/ivalue.h>

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "model/layer_match.h"
#include "instrument/instrumented_model.h"
#include "record/manifest.h"
#include "record/record_options.h"
#include "record/recorded_layers.h"

namespace modrec {

class Recording {
 public:
  // Throws Error(usage) for options that cannot work together, Error(bad_input) for an
  // unreadable --grad file. Files go under `dir` (the run's temporary directory); kept tensors
  // wait in `dir`/.spool until write().
  Recording(InstrumentedModel& model, const RecordOptions& options, std::string dir);

  // Splits `inputs` into batches (--batch-size) and records each; `progress(done, total)` after
  // each. Interruptible between passes. Logs each pass's and each merge's time (-v).
  void run(const std::vector<c10::IValue>& inputs,
           const std::function<void(int done, int total)>& progress);

  // Completes the tensor files and writes stats.json, stats.csv and manifest.json; returns the
  // manifest's text.
  std::string write(const ModelOptions& model, const InputOptions& inputs,
                    const std::vector<c10::IValue>& input_values);

 private:
  struct Pass;
  std::unique_ptr<Pass> run_pass(const std::vector<c10::IValue>& batch);
  void validate_layers(const Pass& pass);
  void merge_params(const Pass& last);

  InstrumentedModel& model_;
  const RecordOptions& options_;
  std::string dir_;
  CaptureSet captures_;
  LayerMatcher matcher_;
  at::Tensor seed_;  // --grad
  bool validated_ = false;
  int batches_ = 0;
  RecordedLayers layers_;
  CallEdits edits_;
};

}  // namespace modrec
