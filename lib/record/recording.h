// The record stage: runs the input batch by batch through the instrumented model, forward with
// the Recorder's hooks and backward, merges each pass's captures into the run's layers, and
// writes the recording directory (docs/run-dir.md).
#pragma once
#include <ATen/core/ivalue.h>

#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/layer_match.h"
#include "instrument/instrumented_model.h"
#include "record/manifest.h"
#include "record/nonfinite.h"
#include "record/record_options.h"
#include "record/recorded_layers.h"

namespace modrec {

class Recording {
 public:
  // Throws Error(usage) for options that cannot work together, Error(bad_input) for an
  // unreadable --grad file. Files go under `dir` (the run's temporary directory); kept tensors
  // wait in `dir`/.spool until write().
  // `backward(output)`: what runs after each forward instead of record's --loss or --grad
  // (watch's training loss); empty: record's.
  using Backward = std::function<void(const c10::IValue& output)>;
  Recording(InstrumentedModel& model, const RecordOptions& options, std::string dir,
            Backward backward = {});

  // Splits `inputs` into batches (--batch-size) and records each; `progress(done, total)` after
  // each. Interruptible between passes. Logs each pass's and each merge's time (-v).
  void run(const std::vector<c10::IValue>& inputs,
           const std::function<void(int done, int total)>& progress);

  // Completes the tensor files and writes stats.json, stats.csv and manifest.json; returns the
  // manifest's text. Warns when --when kept no batch.
  std::string write(const ModelOptions& model, const InputOptions& inputs,
                    const std::vector<c10::IValue>& input_values);

  // What run() recorded: the statistics are complete, tensor files are not before write().
  const std::vector<LayerRecording>& layers() const { return layers_.layers(); }
  // --when nonfinite: the first NaN or Inf recorded, if any.
  const std::optional<FirstNonFinite>& nonfinite_found() const { return first_nonfinite_; }

 private:
  struct Pass;
  std::unique_ptr<Pass> run_pass(const std::vector<c10::IValue>& batch, int64_t number,
                                 const at::Tensor& rows);
  void validate_layers(const Pass& pass);
  // --when target:K: per batch, the rows whose label is K (all batches' labels read up front).
  std::vector<at::Tensor> target_rows(const std::vector<std::vector<c10::IValue>>& batches) const;
  // --when nonfinite: whether the pass saw a NaN or ±Inf; the first one is reported.
  bool keeps(const Pass& pass, int64_t number);
  void merge_params(const Pass& any);

  InstrumentedModel& model_;
  const RecordOptions& options_;
  std::string dir_;
  Backward backward_;
  CaptureSet captures_;
  LayerMatcher matcher_;
  at::Tensor seed_;  // --grad
  bool validated_ = false;
  std::vector<int64_t> kept_;  // the numbers of the batches recorded
  std::optional<FirstNonFinite> first_nonfinite_;
  RecordedLayers layers_;
  CallEdits edits_;
};

}  // namespace modrec
