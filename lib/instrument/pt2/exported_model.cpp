#include "instrument/pt2/exported_model.h"

#include <map>
#include <set>

#include "load/pt2/exported_tree.h"
#include "util/log.h"

namespace modrec {

ExportedModel::ExportedModel(pt2::ExportedArchive archive, InstrumentOptions options)
    : archive_(std::move(archive)),
      tree_(pt2::exported_tree(archive_)),
      runner_(archive_, tree_, options) {
  warn_untyped();
}

// A module whose forward runs no operator (an Identity, a container never called itself) left no
// node: without modrec.export's notes the archive has no class for it, and no trace of its calls.
void ExportedModel::warn_untyped() const {
  std::vector<std::string> paths;
  for (const Module& m : tree_.modules)
    if (m.qualified_type.empty() && !m.path.empty()) paths.push_back(m.path);
  if (!paths.empty())
    log::warn(archive_.path, ": modules that run no operator have no class (", pt2::kUnknownType,
              ") nor calls in the archive (", paths.size(), "): ", log::listed(paths),
              "; modrec.export keeps them");
}

void ExportedModel::train(bool on) {
  if (on)
    log::warn(archive_.path,
              ": a torch.export program runs in the mode it was exported in; train mode changes "
              "nothing");
}

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
  // The signature's order, as named_parameters(): a weight tied between modules is listed under
  // each of its FQNs, and once here (an optimizer handed it twice would step it twice).
  std::vector<at::Tensor> out;
  std::set<const c10::TensorImpl*> seen;
  for (const pt2::InputSpec& in : archive_.program.inputs) {
    if (in.kind != pt2::InputSpec::Kind::parameter) continue;
    const at::Tensor& p = archive_.state.at(in.target).value;
    if (seen.insert(p.unsafeGetTensorImpl()).second) out.push_back(p);
  }
  return out;
}

std::vector<at::Tensor> ExportedModel::state_tensors() const {
  std::vector<at::Tensor> out;
  for (const auto& [fqn, stored] : archive_.state) out.push_back(stored.value);
  return out;
}

void ExportedModel::to(const at::Device& device) {
  std::map<const c10::TensorImpl*, at::Tensor> moved;  // tied weights stay one tensor
  for (auto& [fqn, stored] : archive_.state) {
    if (stored.value.device() == device) continue;
    auto [it, first] = moved.try_emplace(stored.value.unsafeGetTensorImpl());
    if (first)
      it->second = stored.value.to(device).detach().requires_grad_(stored.value.requires_grad());
    stored.value = it->second;
  }
}

std::vector<c10::Argument> ExportedModel::forward_arguments() const {
  std::vector<c10::Argument> args;
  for (const pt2::InputSpec& in : archive_.program.inputs)
    if (in.kind == pt2::InputSpec::Kind::user_input)
      args.emplace_back(in.value, c10::TensorType::get());
  return args;
}

}  // namespace modrec
