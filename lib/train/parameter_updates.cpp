#include "train/parameter_updates.h"

#include <ATen/ATen.h>

#include <cmath>
#include <set>

namespace modrec {
namespace {

// ||p|| before the step from the layer's param capture, which summarized these very values when
// its recording ended: its statistics' L2 norm, when every value was finite. NaN when the capture
// is not recorded (--capture without param) or holds NaN or Inf.
double recorded_norm(const LayerRecording& layer, const std::string& name) {
  for (const auto& c : layer.captures) {
    if (c.capture != Capture::param) continue;
    const auto& names = c.sink.tensor_names();
    for (size_t i = 0; i < names.size(); ++i) {
      const RunningStats& stats = c.sink.stats(i);
      if (names[i] == name && stats.finite_count() == stats.count()) return stats.l2_norm();
    }
  }
  return std::nan("");
}

}  // namespace

void ParameterUpdates::snapshot(const InstrumentedModel& model,
                                const std::vector<LayerRecording>& layers) {
  std::vector<Before> now;
  std::set<std::string> seen;  // a module called twice owns its parameters once
  for (const auto& layer : layers) {
    if (layer.traced_away || !seen.insert(layer.path).second) continue;
    for (const auto& [name, p] : model.own_parameters(model.tree().find(layer.path)))
      now.push_back({layer.label, name, p, {}, recorded_norm(layer, name)});
  }
  for (size_t i = 0; i < now.size(); ++i) {
    const bool same = i < before_.size() && before_[i].param.is_same(now[i].param) &&
                      before_[i].value.sizes() == now[i].param.sizes();
    if (same) {
      now[i].value = std::move(before_[i].value);
      now[i].value.copy_(now[i].param.detach());
    } else {
      now[i].value = now[i].param.detach().clone();
    }
  }
  before_ = std::move(now);
}

std::vector<ParameterUpdate> ParameterUpdates::changes() {
  std::vector<ParameterUpdate> out;
  for (auto& b : before_) {
    const at::Tensor after = b.param.detach();
    TensorSummary summary = summarize_difference(after, b.value);
    // The statistics' L2 norm is of the finite values: the change's own when all are finite,
    // which saves forming the change again.
    const double change_norm = summary.stats.finite_count() == summary.stats.count()
                                   ? summary.stats.l2_norm()
                                   : (after - b.value).norm().item<double>();
    const double norm = std::isnan(b.norm) ? b.value.norm().item<double>() : b.norm;
    const double ratio = change_norm / norm;
    out.push_back({b.label, b.name, std::move(summary), ratio});
  }
  return out;
}

}  // namespace modrec
