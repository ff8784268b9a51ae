#include "load/pt2/exported_tree.h"

#include <c10/core/ScalarType.h>

#include <set>

#include "load/pt2/schema_enums.h"

namespace modrec::pt2 {
namespace {

// Module path -> qualified class, from every node's module stack (subgraphs' nodes included), and
// for the modules that made no node (an Identity, a ModuleList) from modrec.export's notes when
// the archive has them.
// A program exported from a GraphModule (PT2E's converted model) names the user's class on the
// nodes it kept and torch.export's own wrapper class on those the conversion made: the user's wins.
std::map<std::string, std::string> module_types(const ExportedArchive& archive) {
  std::map<std::string, std::string> types;
  visit_nodes(archive.program.nodes, [&](const Node& node) {
    for (const StackEntry& e : node.module_stack) {
      auto [it, added] = types.emplace(e.path, e.type);
      if (!added && it->second.starts_with("torch.export.")) it->second = e.type;
    }
  });
  if (archive.notes) types.insert(archive.notes->types.begin(), archive.notes->types.end());
  return types;
}

std::string last_part(const std::string& dotted) { return dotted.substr(dotted.rfind('.') + 1); }

// The longest proper prefix of `path` ("a.b" of "a.b.c") that is a module, else the root.
int parent_of(const ModuleTree& tree, const std::string& path) {
  for (size_t dot = path.rfind('.'); dot != std::string::npos; dot = path.rfind('.', dot - 1)) {
    const int found = tree.find(path.substr(0, dot));
    if (found >= 0) return found;
    if (dot == 0) break;
  }
  return 0;
}

Module module(const std::string& path, const std::map<std::string, std::string>& types) {
  Module m;
  m.path = path;
  auto it = types.find(path);
  m.qualified_type = it == types.end() ? "" : it->second;
  m.type = it == types.end() ? kUnknownType : last_part(it->second);
  m.var_name = path.empty() ? m.type : last_part(path);
  return m;
}

Param param(const std::string& name, const at::Tensor& value, bool trainable) {
  return {name,          value.sizes().vec(),
          value.numel(), static_cast<int64_t>(value.element_size()),
          trainable,     value.unsafeGetTensorImpl()};
}

// Parameters in the signature's order (named_parameters()), each on the module owning it.
void add_params(const ExportedArchive& archive, ModuleTree& tree) {
  for (const InputSpec& in : archive.program.inputs) {
    if (in.kind != InputSpec::Kind::parameter) continue;
    const size_t dot = in.target.rfind('.');
    const std::string owner = dot == std::string::npos ? "" : in.target.substr(0, dot);
    const int m = owner.empty() ? 0 : tree.find(owner);
    if (m < 0) continue;  // a module path that module_call_graph lacks: not shown, as torchinfo
    const at::Tensor& value = archive.state.at(in.target).value;
    tree.modules[m].params.push_back(param(last_part(in.target), value, value.requires_grad()));
  }
}

// The argument `name` of `node`; null when it has none.
const Argument* node_arg(const Node& node, const std::string& name) {
  for (const NodeArg& arg : node.inputs)
    if (arg.name == name) return &arg.value;
  return nullptr;
}

// The kernel a module's node tells: a pooling node's (aten.max_pool2d, avg_pool2d...)
// `kernel_size`, or the trailing dims of the `weight` tensor a convolution node takes (from the
// program's tensor metadata: a parametrized convolution's weight is computed, no parameter).
std::optional<Kernel> node_kernel(const Program& program, const Node& node, const Module& m) {
  if (const Argument* k = node_arg(node, "kernel_size"); k && k->kind == Argument::Kind::ints)
    return pool_kernel(m.type, k->ints);
  const Argument* weight = node_arg(node, "weight");
  if (!weight || weight->kind != Argument::Kind::tensor) return std::nullopt;
  const auto meta = program.tensor_values.find(weight->names[0]);
  if (meta == program.tensor_values.end()) return std::nullopt;
  return conv_kernel(m.type, meta->second.sizes);
}

// The archive keeps no module attribute: a convolution's kernel_size is its weight's trailing
// dims, a pooling layer's the one its call's pooling node passes.
void add_kernels(const Program& program, ModuleTree& tree) {
  for (Module& m : tree.modules)
    for (const Param& p : m.params)
      if (p.name == "weight") m.kernel = conv_kernel(m.type, p.shape);
  visit_nodes(program.nodes, [&](const Node& node) {
    if (node.module_stack.empty()) return;
    const int m = tree.find(node.module_stack.back().path);  // the innermost call's module
    if (m < 0 || tree.modules[m].kernel) return;
    tree.modules[m].kernel = node_kernel(program, node, tree.modules[m]);
  });
}

// module_call_graph's paths, then those only the nodes' stacks name in the order first met: a
// program exported from a GraphModule (PT2E's converted model) has no submodule for the calls its
// graph inlined (a ReLU's), which the stacks still record.
// (A node torch.export made without a stack has its marker for one, which is no module:
// torch/_export/passes/_node_metadata_hook.py, a dynamic size's computation.)
std::vector<std::string> module_paths(const Program& program) {
  std::vector<std::string> paths = program.module_paths;
  std::set<std::string> known(paths.begin(), paths.end());
  known.insert("_empty_nn_module_stack_from_metadata_hook");
  visit_nodes(program.nodes, [&](const Node& node) {
    for (const StackEntry& e : node.module_stack)
      if (known.insert(e.path).second) paths.push_back(e.path);
  });
  return paths;
}

// The paths modrec.export's notes name as another's module object (the program does not tell).
void add_same_objects(const std::map<std::string, std::string>& same_as, ModuleTree& tree) {
  for (const auto& [path, first] : same_as) {
    const int m = tree.find(path), object = tree.find(first);
    if (m > 0 && object > 0 && object < m && tree.modules[object].same_as < 0)
      tree.modules[m].same_as = object;
  }
}

}  // namespace

ModuleTree exported_tree(const ExportedArchive& archive) {
  const auto types = module_types(archive);
  ModuleTree tree;
  tree.modules.push_back(module("", types));
  for (const std::string& path : module_paths(archive.program)) {
    if (path.empty()) continue;
    Module m = module(path, types);
    m.parent = parent_of(tree, path);
    m.depth = tree.modules[m.parent].depth + 1;
    tree.modules[m.parent].children.push_back(static_cast<int>(tree.modules.size()));
    tree.modules.push_back(std::move(m));
  }
  add_params(archive, tree);
  add_kernels(archive.program, tree);
  if (archive.notes) add_same_objects(archive.notes->same_as, tree);
  return tree;
}

}  // namespace modrec::pt2
