#include "memory/saved_tensors.h"

#include <torch/csrc/autograd/function.h>
#include <torch/csrc/dynamo/compiled_autograd.h>

#include <unordered_set>

namespace modrec {
namespace ca = torch::dynamo::autograd;

StorageSet storages_of(const std::vector<at::Tensor>& tensors) {
  StorageSet out;
  for (const at::Tensor& t : tensors)
    if (t.defined() && t.has_storage()) out.insert(t.storage().data());
  return out;
}

std::optional<std::vector<at::Tensor>> saved_tensors(torch::autograd::Node& node) {
  // compiled_args collects every tensor it visits into the compiler call's tensor arguments, each
  // SavedVariable unpacked (no hooks: modrec installs none); the key it builds is dropped.
  ca::AutogradCompilerCall compiler(ca::SizeInput::STATIC);
  ca::NodeCall call(0, node.getptr());
  ca::CompiledNodeArgs args(compiler, call);
  try {
    node.compiled_args(args);
  } catch (const c10::Error&) {
    return std::nullopt;  // "compiled_args not implemented"
  }
  return std::move(compiler.tensor_args.inputs);
}

SavedInSpan saved_in_span(const std::vector<at::Tensor>& roots, uint64_t first, uint64_t end,
                          const StorageSet& resident) {
  SavedInSpan out;
  std::unordered_set<const torch::autograd::Node*> visited;
  std::unordered_set<const void*> counted;
  std::vector<torch::autograd::Node*> todo;
  auto visit = [&](torch::autograd::Node* node) {
    // A node older than the span leads only to older ones: the walk stops there.
    if (node && node->sequence_nr() >= first && node->sequence_nr() < end &&
        visited.insert(node).second)
      todo.push_back(node);
  };
  for (const at::Tensor& t : roots)
    if (t.defined()) visit(t.grad_fn().get());
  while (!todo.empty()) {
    torch::autograd::Node* node = todo.back();
    todo.pop_back();
    for (const torch::autograd::Edge& e : node->next_edges()) visit(e.function.get());
    const auto saved = saved_tensors(*node);
    if (!saved) {
      out.untold.insert(node->name());
      continue;
    }
    for (const at::Tensor& t : *saved) {
      if (!t.has_storage()) continue;
      const void* data = t.storage().data();
      if (resident.count(data) == 0 && counted.insert(data).second)
        out.bytes += static_cast<int64_t>(t.storage().nbytes());
    }
  }
  return out;
}

}  // namespace modrec
