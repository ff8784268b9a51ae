// How far one recorded tensor is from another: the metrics diff reports (torch-free), and their
// computation from statistics when the tensors themselves were not saved.
#pragma once
#include <optional>

#include "stats/running_stats.h"

namespace modrec {

// torch.allclose's test per value: |a - b| <= atol + rtol * |b|, b being RUN_B (the reference).
struct Tolerance {
  double atol = 1e-8;  // torch.allclose's defaults
  double rtol = 1e-5;
};

struct ValueDiff {
  double max_abs = 0;   // max |a - b|
  double mean_abs = 0;  // mean |a - b|
  double max_rel = 0;   // max |a - b| / |b|; inf where b == 0 != a
  std::optional<double> cosine;  // of the flattened tensors; none from statistics
  bool close = true;    // every value within tolerance
};

// The values compared are mean, std, min, max and l2_norm. Undefined (NaN) on both sides counts
// as equal, on one side as a difference.
ValueDiff compare_stats(const RunningStats& a, const RunningStats& b, const Tolerance& tol);

}  // namespace modrec
