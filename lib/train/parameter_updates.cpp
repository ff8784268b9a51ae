#include "train/parameter_updates.h"

#include <ATen/ATen.h>

#include <set>

namespace modrec {

void ParameterUpdates::snapshot(const InstrumentedModel& model,
                                const std::vector<LayerRecording>& layers) {
  std::vector<Before> now;
  std::set<std::string> seen;  // a module called twice owns its parameters once
  for (const auto& layer : layers) {
    if (layer.traced_away || !seen.insert(layer.path).second) continue;
    for (const auto& [name, p] : model.own_parameters(model.tree().find(layer.path)))
      now.push_back({layer.label, name, p, {}, {}});
  }
  for (size_t i = 0; i < now.size(); ++i) {
    const bool same = i < before_.size() && before_[i].param.is_same(now[i].param) &&
                      before_[i].value.sizes() == now[i].param.sizes();
    if (same) {
      now[i].value = std::move(before_[i].value);
      now[i].change = std::move(before_[i].change);
      now[i].value.copy_(now[i].param.detach());
    } else {
      now[i].value = now[i].param.detach().clone();
      now[i].change = at::empty_like(now[i].value);
    }
  }
  before_ = std::move(now);
}

std::vector<ParameterUpdate> ParameterUpdates::changes() {
  std::vector<ParameterUpdate> out;
  for (auto& b : before_) {
    const at::Tensor& change = at::sub_out(b.change, b.param.detach(), b.value);
    TensorSummary summary = summarize_tensor(change);
    // The statistics' L2 norm is of the finite values: the change's own when all are finite,
    // which saves reading every parameter's change once more.
    const double change_norm = summary.stats.finite_count() == summary.stats.count()
                                   ? summary.stats.l2_norm()
                                   : change.norm().item<double>();
    const double ratio = change_norm / b.value.norm().item<double>();
    out.push_back({b.label, b.name, std::move(summary), ratio});
  }
  return out;
}

}  // namespace modrec
