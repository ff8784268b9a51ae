// Collects one capture of one layer call across batches: statistics always (merged from each
// batch's summaries), and the tensors, when saved, either concatenated along dim 0 from the batch
// files (TensorSpool: never all in memory) or reduced over samples in memory.
#pragma once
#include <ATen/core/ivalue.h>

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "model/captures.h"
#include "record/record_options.h"
#include "record/collect/recorder.h"
#include "record/accumulate/tensor_spool.h"
#include "stats/running_stats.h"

namespace modrec {

// --reduce sums each tensor over dim 0 (its samples) and across batches; mean divides by the
// number of samples. Keeps one tensor per capture however many batches come.
// Without --reduce the batches stay in the passes' batch files until write() reads them back into
// tensors/<label>/<capture>.pt or <capture>[.<i>].npy, one capture at a time.
class CaptureSink {
 public:
  // Files go under `run_dir` (the run's temporary directory).
  CaptureSink(SaveFormat save, Reduce reduce, std::string run_dir, std::string label,
              Capture capture)
      : save_(save),
        reduce_(reduce),
        run_dir_(std::move(run_dir)),
        label_(std::move(label)),
        capture_(capture) {}

  // Tensors with names (a module's parameters) are written one file each,
  // tensors/<label>/<capture>.<name>.pt (or .npy), and named in the statistics and manifest.
  void name_tensors(std::vector<std::string> names) { names_ = std::move(names); }
  const std::vector<std::string>& tensor_names() const { return names_; }

  // One batch. Throws Error(model_failed) when its tensors cannot be concatenated to the earlier
  // batches' (see TensorSpool), Error(write_failed) when they cannot be spooled.
  void add(const CapturedValue& value);

  size_t num_tensors() const { return stats_.size(); }
  const RunningStats& stats(size_t i) const { return stats_[i]; }
  const std::vector<int64_t>& shape(size_t i) const { return shapes_[i]; }
  std::string dtype(size_t i) const;  // torch's name: "float32"
  // What the saved file holds: with --reduce the sample dimension is gone and values are float.
  std::vector<int64_t> saved_shape(size_t i) const;
  at::ScalarType saved_dtype(size_t i) const;
  int64_t samples() const { return samples_; }
  // The place of tensor i in the capture's value ("1.0"; "" for a lone tensor or a parameter).
  std::string tensor_place(size_t i) const;
  // Tensor i as tables and tags name it ("output[1][0]", "param.weight": tensor_element).
  std::string element(size_t i) const;
  // Gradients refused in any batch, by place (recorder.h, refuse_blocked).
  const std::vector<NoGradient>& no_gradient() const { return no_gradient_; }
  // The values of an input or output capture that are not tensors (a call's bool, int, str or
  // None arguments), as the first batch had them: kept in the .pt (pickle holds them), never in
  // .npy or the statistics. [{"at": "3", "type": "bool", "value": true}, ...]; "at" as
  // for_each_non_tensor. Empty for gradients.
  nlohmann::json non_tensor_values() const;

  // Completes tensors/<label>/<capture>.pt (structure kept) or <capture>.npy / <capture>.<i>.npy
  // once every batch is in; returns their paths relative to the run directory.
  std::vector<std::string> write();

 private:
  void start(const CapturedValue& value);
  std::string relative_dir() const;       // tensors/<label>
  std::string file_stem(size_t i) const;  // <capture>[.<i> | .<name>]
  void keep(size_t i, const BatchFileTensor& stored);
  at::Tensor result(size_t i);

  SaveFormat save_;
  Reduce reduce_;
  std::string run_dir_;
  std::string label_;
  Capture capture_;
  std::vector<std::string> names_;
  c10::IValue structure_;  // the first batch's value, tensors left undefined: where each sits
  std::vector<std::string> places_;  // of its tensors
  std::vector<NoGradient> no_gradient_;
  std::vector<RunningStats> stats_;
  std::vector<std::vector<int64_t>> shapes_;
  std::vector<std::optional<at::ScalarType>> dtypes_;  // nullopt until the first batch
  std::vector<TensorSpool> spools_;                    // without --reduce
  std::vector<at::Tensor> reduced_;                    // with --reduce
  int64_t samples_ = 0;
};

}  // namespace modrec
