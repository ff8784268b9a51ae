// How far one recorded tensor is from another: the metrics diff reports (torch-free), computed
// over the values themselves or, when the tensors were not saved, over their statistics.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "stats/running_stats.h"
#include "util/enum_names.h"

namespace modrec {

// How an element's error meets the tolerance (b is RUN_B, the reference; d = |a - b|):
// allclose: d <= atol + rtol * |b| (torch.allclose); either: d <= atol or d / |b| <= rtol
// (Polygraphy: an element fails only when beyond both).
enum class ErrorRule { allclose, either };
const EnumNames<ErrorRule>& error_rule_names();

// Which statistic of the errors is compared with the tolerance (Polygraphy's
// --check-error-stat): elemwise, every element; else the max, mean, median or 99th percentile
// (numpy's linear interpolation) of d and of d / |b|.
enum class ErrorStat { elemwise, max, mean, median, p99 };
const EnumNames<ErrorStat>& error_stat_names();

struct Tolerance {
  double atol = 1e-8;  // torch.allclose's defaults
  double rtol = 1e-5;
  ErrorRule rule = ErrorRule::allclose;
  ErrorStat stat = ErrorStat::elemwise;
  // A layer's measured memory (recorded with --columns saved_bytes,peak_bytes) differs when a
  // figure is beyond this fraction of RUN_B's (MemoryDiff).
  double memory_rtol = 0.1;
};

// numpy.histogram(d, bins=10) over the finite errors.
struct ErrorHistogram {
  std::vector<double> edges;    // 11
  std::vector<int64_t> counts;  // 10
};

struct ValueDiff {
  double max_abs = 0;            // max |a - b|
  double mean_abs = 0;           // mean |a - b|
  double max_rel = 0;            // max |a - b| / |b|; inf where b == 0 != a
  std::optional<double> cosine;  // of the flattened tensors; none from statistics
  // The smallest atol (rtol 0) and rtol (atol 0) that would have passed under the chosen error
  // statistic: S(d) and S(d / |b|), S being the max for elemwise.
  double min_atol = 0;
  double min_rtol = 0;
  bool close = true;                        // within tolerance
  std::optional<ErrorHistogram> histogram;  // of the values' errors, when not close
};

// Equal values (inf == inf, NaN beside NaN) are no error; NaN on one side only is an infinite one.
// `histogram`: add one when the values are not close.
ValueDiff compare_values(const std::vector<double>& a, const std::vector<double>& b,
                         const Tolerance& tol, bool histogram);

// The values compared are mean, std, min, max and l2_norm; no histogram.
ValueDiff compare_stats(const RunningStats& a, const RunningStats& b, const Tolerance& tol);

}  // namespace modrec
