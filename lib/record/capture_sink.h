// Collects one capture of one layer call across batches: statistics always (merged from each
// batch's summaries), and the tensors, when saved, concatenated along dim 0 or reduced over
// samples until written out.
#pragma once
#include <ATen/core/ivalue.h>

#include <map>
#include <string>
#include <vector>

#include "record/captures.h"
#include "record/recorder.h"
#include "stats/running_stats.h"

namespace modrec {

enum class SaveFormat { pt, npy, none };
enum class Reduce { none, sum, mean };

// --reduce sums each tensor over dim 0 (its samples) and across batches; mean divides by the
// number of samples. Keeps one tensor per capture however many batches come.
class CaptureSink {
 public:
  CaptureSink(SaveFormat save, Reduce reduce) : save_(save), reduce_(reduce) {}

  void add(const CapturedValue& value);  // one batch

  size_t num_tensors() const { return stats_.size(); }
  const RunningStats& stats(size_t i) const { return stats_[i]; }
  const std::vector<int64_t>& shape(size_t i) const { return shapes_[i]; }
  const std::string& dtype(size_t i) const { return dtypes_[i]; }
  // What the saved file holds: with --reduce the sample dimension is gone and values are float.
  std::vector<int64_t> saved_shape(size_t i) const;
  std::string saved_dtype(size_t i) const;
  int64_t samples() const { return samples_; }

  // Writes <dir>/<capture>.pt (structure kept) or <capture>.npy / <capture>.<i>.npy; returns the
  // file names written (relative to dir).
  std::vector<std::string> write(const std::string& dir, const std::string& capture) const;

 private:
  void keep(size_t i, const at::Tensor& t);
  at::Tensor result(size_t i) const;

  SaveFormat save_;
  Reduce reduce_;
  c10::IValue structure_;  // the first batch's value: where each tensor sits
  std::vector<RunningStats> stats_;
  std::vector<std::vector<int64_t>> shapes_;
  std::vector<std::string> dtypes_;
  std::vector<std::vector<at::Tensor>> batches_;  // without --reduce
  std::vector<at::Tensor> reduced_;               // with --reduce
  int64_t samples_ = 0;
};

}  // namespace modrec
