#include "train/parameter_updates.h"

#include <ATen/ATen.h>

#include <set>

namespace modrec {

ParameterUpdates::ParameterUpdates(const InstrumentedModel& model,
                                   const std::vector<LayerRecording>& layers) {
  std::set<std::string> seen;  // a module called twice owns its parameters once
  for (const auto& layer : layers) {
    if (layer.traced_away || !seen.insert(layer.path).second) continue;
    for (const auto& [name, p] : model.own_parameters(model.tree().find(layer.path)))
      before_.push_back({layer.label, name, p, p.detach().clone()});
  }
}

std::vector<ParameterUpdate> ParameterUpdates::changes() const {
  std::vector<ParameterUpdate> out;
  for (const auto& b : before_) {
    const at::Tensor change = b.param.detach() - b.value;
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
