#include "check/value_diff.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace modrec {

ValueDiff compare_stats(const RunningStats& a, const RunningStats& b, const Tolerance& tol) {
  const double pairs[][2] = {{a.mean(), b.mean()},
                             {a.std(), b.std()},
                             {a.min(), b.min()},
                             {a.max(), b.max()},
                             {a.l2_norm(), b.l2_norm()}};
  ValueDiff d;
  for (const auto& [x, y] : pairs) {
    if (std::isnan(x) && std::isnan(y)) continue;
    const double err = std::isnan(x) || std::isnan(y) ? std::numeric_limits<double>::infinity()
                                                      : std::abs(x - y);
    const double rel = err == 0 ? 0 : err / std::abs(y);
    d.max_abs = std::max(d.max_abs, err);
    d.mean_abs += err / std::size(pairs);
    d.max_rel = std::max(d.max_rel, rel);
    d.close = d.close && err <= tol.atol + tol.rtol * std::abs(y);
  }
  return d;
}

}  // namespace modrec
