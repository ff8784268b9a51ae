#include "diff/value_diff.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace modrec {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double error(double x, double y) {
  if (x == y || (std::isnan(x) && std::isnan(y))) return 0;
  return std::isnan(x) || std::isnan(y) ? kInf : std::abs(x - y);
}

double relative(double err, double y) { return err == 0 ? 0 : err / std::abs(y); }

// numpy.quantile's default (linear) on values sorted in place, rounded as numpy's lerp rounds.
double quantile(std::vector<double>& v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos)), hi = static_cast<size_t>(std::ceil(pos));
  if (lo == hi || v[lo] == v[hi]) return v[lo];
  const double t = pos - static_cast<double>(lo), diff = v[hi] - v[lo];
  return t >= 0.5 ? v[hi] - diff * (1 - t) : v[lo] + diff * t;
}

double statistic(std::vector<double> v, ErrorStat stat) {
  if (v.empty()) return 0;
  switch (stat) {
    case ErrorStat::elemwise:
    case ErrorStat::max:
      return *std::max_element(v.begin(), v.end());
    case ErrorStat::mean:
      return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
    case ErrorStat::median:
      return quantile(v, 0.5);
    case ErrorStat::p99:
      break;
  }
  return quantile(v, 0.99);
}

bool element_close(double err, double y, const Tolerance& tol) {
  if (err == 0) return true;  // also where |b| is NaN or inf, which would poison the bound
  if (tol.rule == ErrorRule::either) return err <= tol.atol || relative(err, y) <= tol.rtol;
  return err <= tol.atol + tol.rtol * std::abs(y);
}

bool close(const std::vector<double>& err, const std::vector<double>& b, const ValueDiff& d,
           const Tolerance& tol) {
  if (tol.stat == ErrorStat::elemwise) {
    for (size_t i = 0; i < err.size(); ++i)
      if (!element_close(err[i], b[i], tol)) return false;
    return true;
  }
  // A statistic has no per-element |b| to scale: it passes within atol or within rtol.
  return d.min_atol <= tol.atol || d.min_rtol <= tol.rtol;
}

// numpy.histogram(err, bins=10): equal-width bins over [min, max] (widened by 0.5 each way when
// they are equal), the last bin closed; an index from the width, corrected against the edges.
ErrorHistogram histogram(const std::vector<double>& err) {
  std::vector<double> finite;
  std::copy_if(err.begin(), err.end(), std::back_inserter(finite),
               [](double e) { return std::isfinite(e); });
  ErrorHistogram h{std::vector<double>(11), std::vector<int64_t>(10, 0)};
  if (finite.empty()) return h;
  auto [lo_it, hi_it] = std::minmax_element(finite.begin(), finite.end());
  double lo = *lo_it, hi = *hi_it;
  if (lo == hi) lo -= 0.5, hi += 0.5;
  const double step = (hi - lo) / 10;
  for (int i = 0; i <= 10; ++i) h.edges[i] = i * step + lo;  // as numpy.linspace rounds
  h.edges[10] = hi;
  const double norm = 10 / (hi - lo);
  for (double e : finite) {
    int k = std::min(static_cast<int>((e - lo) * norm), 9);
    if (e < h.edges[k])
      --k;
    else if (k != 9 && e >= h.edges[k + 1])
      ++k;
    ++h.counts[k];
  }
  return h;
}

}  // namespace

const EnumNames<ErrorRule>& error_rule_names() {
  static const EnumNames<ErrorRule> names{{"allclose", ErrorRule::allclose},
                                          {"either", ErrorRule::either}};
  return names;
}

const EnumNames<ErrorStat>& error_stat_names() {
  static const EnumNames<ErrorStat> names{{"elemwise", ErrorStat::elemwise},
                                          {"max", ErrorStat::max},
                                          {"mean", ErrorStat::mean},
                                          {"median", ErrorStat::median},
                                          {"p99", ErrorStat::p99}};
  return names;
}

ValueDiff compare_values(const std::vector<double>& a, const std::vector<double>& b,
                         const Tolerance& tol, bool want_histogram) {
  std::vector<double> err(a.size()), rel(a.size());
  for (size_t i = 0; i < a.size(); ++i) {
    err[i] = error(a[i], b[i]);
    rel[i] = relative(err[i], b[i]);
  }
  ValueDiff d;
  if (!a.empty()) {
    d.max_abs = *std::max_element(err.begin(), err.end());
    d.mean_abs = std::accumulate(err.begin(), err.end(), 0.0) / static_cast<double>(err.size());
    d.max_rel = *std::max_element(rel.begin(), rel.end());
  }
  d.min_atol = statistic(err, tol.stat);
  d.min_rtol = statistic(rel, tol.stat);
  d.close = close(err, b, d, tol);
  if (want_histogram && !d.close) d.histogram = histogram(err);
  return d;
}

ValueDiff compare_stats(const RunningStats& a, const RunningStats& b, const Tolerance& tol) {
  const std::vector<double> va{a.mean(), a.std(), a.min(), a.max(), a.l2_norm()};
  const std::vector<double> vb{b.mean(), b.std(), b.min(), b.max(), b.l2_norm()};
  return compare_values(va, vb, tol, /*histogram=*/false);
}

}  // namespace modrec
