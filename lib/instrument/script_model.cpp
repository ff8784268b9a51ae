#include "instrument/script_model.h"

#include <unordered_set>

#include "instrument/fast_paths.h"
#include "instrument/save_trained.h"
#include "util/log.h"

namespace modrec {

ScriptModel::ScriptModel(torch::jit::Module module, InstrumentOptions options)
    : module_(std::move(module)),
      index_(index_modules(module_)),
      by_index_(index_.tree.modules.size()) {
  for (const auto& named : module_.named_modules()) {
    const int i = index_.tree.find(named.name);
    if (i >= 0) by_index_[static_cast<size_t>(i)] = named.value;
  }
  if (options.savable) as_loaded_ = module_.clone(/*inplace=*/true);
  instrument_calls(module_, options);
  run_graphs_as_written();
  for (const auto& path : leave_fast_paths(module_))
    log::debug(path.empty() ? "model" : path,
               ": TransformerEncoderLayer takes its observed (non-fast) path, as under hooks");
}

c10::IValue ScriptModel::forward(std::vector<c10::IValue> inputs, CallHooks& hooks) {
  ActiveHooks active(index_.by_object, hooks);
  active.enter(0, inputs);
  return active.leave(0, module_.forward(std::move(inputs)));
}

std::vector<at::Tensor> ScriptModel::parameters() const {
  // A weight two submodules share (tied embeddings) is an attribute of each, and the slot list
  // names it once per owner; eager named_parameters() removes the repeats, and an optimizer
  // handed both would step it twice.
  std::vector<at::Tensor> out;
  std::unordered_set<const c10::TensorImpl*> seen;
  for (const at::Tensor& p : module_.parameters())
    if (seen.insert(p.unsafeGetTensorImpl()).second) out.push_back(p);
  return out;
}

std::vector<at::Tensor> ScriptModel::state_tensors() const {
  std::vector<at::Tensor> out;
  for (const at::Tensor& p : module_.parameters()) out.push_back(p);
  for (const at::Tensor& b : module_.buffers()) out.push_back(b);
  return out;
}

void ScriptModel::save(const std::string& out) {
  if (!as_loaded_) InstrumentedModel::save(out);
  save_trained_model(*as_loaded_, module_.is_training(), out);
}

void ScriptModel::to(const at::Device& device) {
  module_.to(device);
  move_device_constants(module_, device);
}

void ScriptModel::clear_gradients() {
  for (at::Tensor p : module_.parameters()) p.mutable_grad() = at::Tensor();
}

std::vector<std::pair<std::string, at::Tensor>> ScriptModel::own_parameters(int module) const {
  std::vector<std::pair<std::string, at::Tensor>> out;
  const auto& submodule = by_index_[static_cast<size_t>(module)];
  if (!submodule) return out;
  for (const auto& p : submodule->named_parameters(/*recurse=*/false))
    out.emplace_back(p.name, p.value);
  return out;
}

CallTrace ScriptModel::static_trace() const {
  CallTrace trace;
  trace.calls.push_back(Call{0, -1, {}, {}, false});
  for (const auto& [path, parent] : static_calls(module_)) {
    const int module = index_.tree.find(path);
    if (module < 0) continue;
    trace.calls.push_back(Call{module, parent + 1, {}, {}, false});
  }
  return trace;
}

std::vector<c10::Argument> ScriptModel::forward_arguments() const {
  const auto& all = module_.get_method("forward").function().getSchema().arguments();
  return {all.begin() + 1, all.end()};  // the first is self
}

}  // namespace modrec
