#include "merge/combine_rule.h"

#include "model/captures.h"

namespace modrec {

Combine combine_rule(const std::string& capture, Reduce reduce) {
  if (capture == capture_name(Capture::param)) return Combine::first;
  if (capture == capture_name(Capture::param_grad)) return Combine::sum;
  switch (reduce) {
    case Reduce::sum:
      return Combine::sum;
    case Reduce::mean:
      return Combine::mean;
    case Reduce::none:
      break;
  }
  return Combine::concatenate;
}

StatsRule stats_rule(const std::string& capture) {
  if (capture == capture_name(Capture::param)) return StatsRule::first;
  if (capture == capture_name(Capture::param_grad)) return StatsRule::from_tensors;
  return StatsRule::merge;
}

}  // namespace modrec
