#include "diff/saved_tensor_diff.h"

#include <algorithm>

#include <ATen/ATen.h>

#include "pass/value_meta.h"
#include "tensor_files/read_inputs.h"

namespace modrec {
namespace {

std::vector<at::Tensor> read_all(const std::vector<std::string>& files) {
  std::vector<at::Tensor> tensors;
  for (const auto& f : files) flatten_tensors(read_saved_value(f), tensors);
  return tensors;
}

// Cosine of the angle between the flattened tensors; 1 when both are zero, 0 when one is.
double cosine(const at::Tensor& a, const at::Tensor& b) {
  const double na = a.norm().item<double>(), nb = b.norm().item<double>();
  if (na == 0 || nb == 0) return na == nb ? 1.0 : 0.0;
  // Rounding can push |cos| a hair past 1 for (anti)parallel tensors.
  return std::clamp((a.flatten().dot(b.flatten())).item<double>() / (na * nb), -1.0, 1.0);
}

std::vector<double> values_of(const at::Tensor& t) {
  const at::Tensor d = t.to(at::kDouble).contiguous();
  return {d.data_ptr<double>(), d.data_ptr<double>() + d.numel()};
}

ValueDiff compare(const at::Tensor& a, const at::Tensor& b, const Tolerance& tol) {
  ValueDiff d = compare_values(values_of(a), values_of(b), tol, /*histogram=*/true);
  d.cosine = cosine(a.to(at::kDouble), b.to(at::kDouble));
  return d;
}

std::vector<int64_t> shape_of(const at::Tensor& t) { return t.sizes().vec(); }

}  // namespace

std::vector<std::optional<SavedTensorDiff>> diff_saved_tensors(
    const std::vector<std::string>& files_a, const std::vector<std::string>& files_b,
    const std::vector<std::pair<size_t, size_t>>& pairs, const Tolerance& tol) {
  const auto a = read_all(files_a), b = read_all(files_b);
  std::vector<std::optional<SavedTensorDiff>> out;
  for (const auto& [i, j] : pairs) {
    if (i >= a.size() || j >= b.size()) {
      out.emplace_back();
      continue;
    }
    SavedTensorDiff d{shape_of(a[i]), shape_of(b[j]), std::nullopt};
    if (d.shape_a == d.shape_b) d.values = compare(a[i], b[j], tol);
    out.emplace_back(std::move(d));
  }
  return out;
}

}  // namespace modrec
