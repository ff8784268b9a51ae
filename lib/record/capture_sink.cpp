#include "record/capture_sink.h"

#include <ATen/ATen.h>

#include "record/tensor_stats.h"
#include "run/value_meta.h"
#include "tensors/dtype.h"
#include "tensors/write_tensors.h"

namespace modrec {
void CaptureSink::add(const c10::IValue& value) {
  std::vector<at::Tensor> tensors;
  flatten_tensors(value, tensors);
  if (structure_.isNone() && !value.isNone()) {
    structure_ = value;
    stats_.resize(tensors.size());
    shapes_.resize(tensors.size());
    dtypes_.resize(tensors.size());
    batches_.resize(tensors.size());
    reduced_.resize(tensors.size());
  }
  for (size_t i = 0; i < tensors.size() && i < stats_.size(); ++i) {
    const at::Tensor& t = tensors[i];
    add_tensor(stats_[i], t);
    if (shapes_[i].empty()) {
      shapes_[i] = t.sizes().vec();
      dtypes_[i] = dtype_name(t.scalar_type());
    } else if (t.dim() > 0 && !shapes_[i].empty()) {
      shapes_[i][0] += t.size(0);
    }
    keep(i, t);
  }
  if (!tensors.empty() && tensors[0].dim() > 0) samples_ += tensors[0].size(0);
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
