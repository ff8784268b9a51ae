#include "check/check_rules.h"

#include <cmath>

namespace modrec {
namespace {

struct Probe {
  const LayerRef& layer;
  const RunCapture& capture;
  const RunTensor& tensor;
  std::vector<Violation>& out;

  // NaN (an undefined statistic) never exceeds a limit.
  void above(const char* rule, double value, std::optional<double> limit) const {
    if (limit && value > *limit) add(rule, value, *limit);
  }
  void below(const char* rule, double value, std::optional<double> limit) const {
    if (limit && value < *limit) add(rule, value, *limit);
  }
  void add(const char* rule, double value, double limit) const {
    out.push_back({layer, capture.name, tensor.index, capture.element(tensor), rule, value, limit});
  }
};

void check_tensor(const Probe& p, const CheckRules& r) {
  const RunningStats& s = p.tensor.stats;
  if (r.no_nan) p.above("no-nan", static_cast<double>(s.nan_count()), 0.0);
  if (r.no_inf) p.above("no-inf", static_cast<double>(s.inf_count()), 0.0);
  p.above("max-abs", s.abs_max(), r.max_abs);
  p.above("max-std", s.std(), r.max_std);
  p.below("min-std", s.std(), r.min_std);
  p.above("max-zero-fraction", s.zero_fraction(), r.max_zero_fraction);
  // The value itself is the figure; there is no limit to show.
  const bool constant = s.count() > 1 && s.finite_count() == s.count() && s.min() == s.max();
  if (constant && s.min() == 0 && r.no_dead.value_or(false)) p.add("no-dead", 0, NAN);
  if (constant && s.min() != 0 && r.no_constant.value_or(false)) p.add("no-constant", s.min(), NAN);
}

}  // namespace

CheckResult check_run(const RunDir& run, const CheckRules& rules, const RunScope& scope) {
  CheckResult result;
  for (size_t i : scope.select(run.refs())) {
    const RunLayer& layer = run.layers[i];
    ++result.layers_checked;
    for (const RunCapture& capture : layer.captures) {
      if (!scope.wants(capture.name)) continue;
      for (const RunTensor& tensor : capture.tensors) {
        ++result.tensors_checked;
        check_tensor({layer.ref, capture, tensor, result.violations}, rules);
      }
      for (const NoGradient& g : capture.no_gradient)
        result.not_recorded.push_back({layer.ref, capture.element(g), g});
    }
  }
  return result;
}

}  // namespace modrec
