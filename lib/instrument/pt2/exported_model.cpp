#include "instrument/pt2/exported_model.h"

#include "load/pt2/exported_tree.h"

namespace modrec {

ExportedModel::ExportedModel(pt2::ExportedArchive archive, InstrumentOptions options)
    : archive_(std::move(archive)),
      tree_(pt2::exported_tree(archive_)),
      runner_(archive_, tree_, options) {}

c10::IValue ExportedModel::forward(std::vector<c10::IValue> inputs, CallHooks& hooks) {
  return runner_.run(std::move(inputs), hooks, archive_);
}

void ExportedModel::clear_gradients() {
  for (at::Tensor& p : parameters()) p.mutable_grad() = at::Tensor();
}

std::vector<std::pair<std::string, at::Tensor>> ExportedModel::own_parameters(int module) const {
  std::vector<std::pair<std::string, at::Tensor>> out;
  const std::string& path = tree_.modules[module].path;
  for (const Param& p : tree_.modules[module].params)
    out.emplace_back(p.name, archive_.state.at(path.empty() ? p.name : path + "." + p.name).value);
  return out;
}

std::vector<at::Tensor> ExportedModel::parameters() const {
  std::vector<at::Tensor> out;  // the signature's order: named_parameters()
  for (const pt2::InputSpec& in : archive_.program.inputs)
    if (in.kind == pt2::InputSpec::Kind::parameter)
      out.push_back(archive_.state.at(in.target).value);
  return out;
}

CallTrace ExportedModel::static_trace() const {
  CallTrace trace;
  for (const Module& m : tree_.modules)
    trace.calls.push_back(Call{static_cast<int>(trace.calls.size()), m.parent, {}, {}, false});
  return trace;
}

void ExportedModel::to(const at::Device& device) {
  for (auto& [fqn, stored] : archive_.state) {
    const bool grad = stored.value.requires_grad();
    stored.value = stored.value.to(device).detach().requires_grad_(grad);
  }
}

}  // namespace modrec
