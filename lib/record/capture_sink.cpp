#include "record/capture_sink.h"

#include <ATen/ATen.h>

#include "run/value_meta.h"
#include "tensors/dtype.h"
#include "tensors/write_tensors.h"

namespace modrec {
void CaptureSink::add(const CapturedValue& value) {
  if (stats_.empty()) {
    structure_ = value.value;  // the first batch's copies show where each tensor sits
    const size_t n = value.tensors.size();
    stats_.resize(n);
    shapes_.resize(n);
    dtypes_.resize(n);
    batches_.resize(n);
    reduced_.resize(n);
  }
  for (size_t i = 0; i < value.tensors.size() && i < stats_.size(); ++i) {
    const TensorSummary& t = value.tensors[i];
    stats_[i].merge(t.stats);
    if (dtypes_[i].empty()) {
      shapes_[i] = t.shape;
      dtypes_[i] = t.dtype;
    } else if (!t.shape.empty() && !shapes_[i].empty()) {
      shapes_[i][0] += t.shape[0];
    }
  }
  if (!value.tensors.empty() && !value.tensors[0].shape.empty())
    samples_ += value.tensors[0].shape[0];
  if (value.value.isNone()) return;
  std::vector<at::Tensor> copies;
  flatten_tensors(value.value, copies);
  for (size_t i = 0; i < copies.size() && i < stats_.size(); ++i) keep(i, copies[i]);
}

void CaptureSink::keep(size_t i, const at::Tensor& t) {
  if (save_ == SaveFormat::none) return;
  if (reduce_ == Reduce::none) {
    batches_[i].push_back(t);
    return;
  }
  at::Tensor summed = t.dim() > 0 ? t.to(at::kDouble).sum(0) : t.to(at::kDouble);
  reduced_[i] = reduced_[i].defined() ? reduced_[i] + summed : summed;
}

at::Tensor CaptureSink::result(size_t i) const {
  if (reduce_ == Reduce::none)
    return batches_[i].size() == 1 || batches_[i][0].dim() == 0 ? batches_[i][0]
                                                                : at::cat(batches_[i], 0);
  at::Tensor r = reduce_ == Reduce::mean && samples_ > 0 ? reduced_[i] / double(samples_)
                                                         : reduced_[i];
  return r.to(saved_dtype(i) == "float64" ? at::kDouble : at::kFloat);
}

std::vector<int64_t> CaptureSink::saved_shape(size_t i) const {
  if (reduce_ == Reduce::none || shapes_[i].empty()) return shapes_[i];
  return {shapes_[i].begin() + 1, shapes_[i].end()};
}

std::string CaptureSink::saved_dtype(size_t i) const {
  if (reduce_ == Reduce::none || dtypes_[i] == "float64") return dtypes_[i];
  return "float32";
}

std::vector<std::string> CaptureSink::write(const std::string& dir,
                                            const std::string& capture) const {
  std::vector<std::string> files;
  if (save_ == SaveFormat::none || stats_.empty()) return files;
  std::vector<at::Tensor> tensors;
  for (size_t i = 0; i < stats_.size(); ++i) tensors.push_back(result(i));
  if (save_ == SaveFormat::pt) {
    files.push_back(capture + ".pt");
    write_pt(dir + "/" + files.back(), rebuild_tensors(structure_, tensors));
    return files;
  }
  for (size_t i = 0; i < tensors.size(); ++i) {
    files.push_back(tensors.size() == 1 ? capture + ".npy"
                                        : capture + "." + std::to_string(i) + ".npy");
    write_npy(dir + "/" + files.back(), tensors[i]);
  }
  return files;
}

}  // namespace modrec
