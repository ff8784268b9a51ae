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
#include "record/output/manifest.h"
#include "record/collect/nonfinite.h"
#include "record/record_options.h"
#include "record/accumulate/accumulated_layers.h"
#include "tensorboard/event_file.h"
#include "arguments/input_batches.h"
#include "util/stopwatch.h"

namespace modrec {

class Recording {
 public:
  // `options` validated by the caller (RecordOptions::validate(), once per job). Throws
  // Error(bad_input) for an unreadable --grad file. Files go under `dir` (the run's temporary
  // directory); kept tensors wait in `dir`/.spool until write(). `backward(output)`: what runs
  // after each forward instead of record's --loss or --grad (watch's training loss); empty:
  // record's.
  using Backward = std::function<void(const c10::IValue& output)>;
  Recording(InstrumentedModel& model, const RecordOptions& options, std::string dir,
            Backward backward = {});

  // --tensorboard: each kept batch's statistics also go to `events` (record/output/batch_events.h);
  // nullptr: none.
  void write_events_to(EventFile* events) { events_ = events; }

  // Records each batch, read as its turn comes; `progress(done, total)` after each.
  // Interruptible between passes. Logs each pass's and each merge's time (-v). A model whose
  // first output does not require grad (a PT2E int8 program, a compiled package: no gradient
  // flows back) is recorded forward only, said in one info line, when the captures were left to
  // their default; asked for gradients (--capture, --grad) it is Error(model_failed).
  // --when target:K reads the batches' targets (one label per sample, 1-d).
  void run(const InputBatches& batches, const std::function<void(int done, int total)>& progress);

  // Completes the tensor files and writes stats.json, stats.csv and manifest.json; returns the
  // manifest's text. Warns when --when kept no batch.
  std::string write(const ModelOptions& model, const InputOptions& inputs,
                    const InputBatches& batches);

  // What run() recorded: the statistics are complete, tensor files are not before write().
  const std::vector<LayerRecording>& layers() const { return layers_.layers(); }
  // --when nonfinite: the first NaN or Inf recorded, if any.
  const std::optional<FirstNonFinite>& nonfinite_found() const { return first_nonfinite_; }

 private:
  struct Collected;
  // Runs and keeps (or drops, under --when) one batch's pass; `last` holds the last one kept.
  void record_batch(const InputBatch& batch, int64_t number, Stopwatch& clock,
                    std::unique_ptr<Collected>& last);
  std::unique_ptr<Collected> run_pass(const std::vector<c10::IValue>& batch, int64_t number,
                                      const at::Tensor& rows);
  // The first pass found no gradient to run a backward from: record's default captures become
  // the forward's alone (Error(model_failed) when gradients were asked for).
  void record_forward_only();
  void validate_layers(const Collected& pass);
  // --when target:K: the batch's rows whose label is K; undefined for other --when.
  at::Tensor target_rows(const InputBatch& batch) const;
  // --when nonfinite: whether the pass saw a NaN or ±Inf; the first one is reported.
  bool keeps(const Collected& pass, int64_t number);
  void merge_params(const Collected& any);
  // --columns saved_bytes,peak_bytes: a kept pass's totals into the run's (the largest).
  void merge_memory(const Collected& pass);

  InstrumentedModel& model_;
  RecordOptions options_;  // backward turned off by record_forward_only
  std::string dir_;
  Backward backward_;
  CaptureSet captures_;
  LayerMatcher matcher_;
  at::Tensor seed_;  // --grad
  bool validated_ = false;
  std::vector<int64_t> kept_;  // the numbers of the batches recorded
  std::optional<FirstNonFinite> first_nonfinite_;
  std::optional<MeasuredMemory> memory_;  // --columns saved_bytes,peak_bytes
  AccumulatedLayers layers_;
  CallEdits edits_;
  EventFile* events_ = nullptr;
};

}  // namespace modrec
