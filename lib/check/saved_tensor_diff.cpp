#include "check/saved_tensor_diff.h"

#include <algorithm>

#include <ATen/ATen.h>

#include "tensors/read_inputs.h"

namespace modrec {
namespace {

std::vector<at::Tensor> read_all(const std::vector<std::string>& files) {
  std::vector<at::Tensor> tensors;
  for (const auto& f : files)
    for (auto& t : read_inputs(f)) tensors.push_back(std::move(t));
  return tensors;
}

// Cosine of the angle between the flattened tensors; 1 when both are zero, 0 when one is.
double cosine(const at::Tensor& a, const at::Tensor& b) {
  const double na = a.norm().item<double>(), nb = b.norm().item<double>();
  if (na == 0 || nb == 0) return na == nb ? 1.0 : 0.0;
  // Rounding can push |cos| a hair past 1 for (anti)parallel tensors.
  return std::clamp((a.flatten().dot(b.flatten())).item<double>() / (na * nb), -1.0, 1.0);
}

ValueDiff compare(const at::Tensor& a_in, const at::Tensor& b_in, const Tolerance& tol) {
  const at::Tensor a = a_in.to(at::kDouble), b = b_in.to(at::kDouble);
  ValueDiff d;
  d.close = at::isclose(a, b, tol.rtol, tol.atol, /*equal_nan=*/true).all().item<bool>();
  // Equal values (inf == inf, NaN beside NaN) are no error; inf - inf would read as NaN.
  const at::Tensor same = (a == b).logical_or(a.isnan().logical_and(b.isnan()));
  const at::Tensor err = at::where(same, at::zeros_like(a), (a - b).abs());
  if (a.numel() > 0) {
    d.max_abs = err.max().item<double>();
    d.mean_abs = err.mean().item<double>();
    d.max_rel = at::where(err == 0, err, err / b.abs()).max().item<double>();
  }
  d.cosine = cosine(a, b);
  return d;
}

std::vector<int64_t> shape_of(const at::Tensor& t) { return t.sizes().vec(); }

}  // namespace

std::vector<SavedTensorDiff> diff_saved_tensors(const std::vector<std::string>& files_a,
                                                const std::vector<std::string>& files_b,
                                                const Tolerance& tol) {
  const auto a = read_all(files_a), b = read_all(files_b);
  std::vector<SavedTensorDiff> out;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    SavedTensorDiff d{shape_of(a[i]), shape_of(b[i]), std::nullopt};
    if (d.shape_a == d.shape_b) d.values = compare(a[i], b[i], tol);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace modrec
