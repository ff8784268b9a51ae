#include "instrument/device_constants.h"

#include <torch/csrc/jit/api/function_impl.h>
#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/ir/ir.h>

#include <unordered_set>
#include <vector>

namespace modrec {
namespace {

using torch::jit::Block;
using torch::jit::Node;

void collect_device_constants(Block* block, const c10::Device& device, std::vector<Node*>& out) {
  for (Node* node : block->nodes()) {
    for (Block* sub : node->blocks()) collect_device_constants(sub, device, out);
    if (node->kind() != c10::prim::Constant ||
        node->output()->type()->kind() != c10::TypeKind::DeviceObjType)
      continue;
    if (torch::jit::toIValue(node->output())->toDevice() != device) out.push_back(node);
  }
}

void move_in_graph(torch::jit::Graph& graph, const c10::Device& device) {
  std::vector<Node*> constants;
  collect_device_constants(graph.block(), device, constants);
  for (Node* node : constants) {
    torch::jit::WithInsertPoint here(node);
    node->output()->replaceAllUsesWith(graph.insertConstant(c10::IValue(device)));
    node->destroy();
  }
}

}  // namespace

void move_device_constants(const torch::jit::Module& root, const c10::Device& device) {
  std::unordered_set<const c10::ClassType*> seen;
  for (const auto& named : root.named_modules()) {
    const auto type = named.value.type();
    if (!seen.insert(type.get()).second) continue;
    for (torch::jit::Function* fn : type->methods())
      if (auto* graph_fn = torch::jit::tryToGraphFunction(*fn))
        move_in_graph(*graph_fn->graph(), device);
  }
}

}  // namespace modrec
