#include "instrument/module_index.h"

#include <algorithm>

#include "instrument/jit_calls.h"

namespace modrec {
namespace {

std::string last_component(const std::string& qualified) {
  auto dot = qualified.rfind('.');
  return dot == std::string::npos ? qualified : qualified.substr(dot + 1);
}

// A traced module keeps its parameters but not its other attributes: a convolution's kernel is
// then its weight's trailing dims.
std::optional<Kernel> kernel_from_weight(const torch::jit::Module& m) {
  const auto name = m.type()->name();
  if (!name || !m.hasattr("weight")) return std::nullopt;
  const c10::IValue weight = m.attr("weight");
  if (!weight.isTensor()) return std::nullopt;
  return conv_kernel(name->name(), weight.toTensor().sizes().vec());
}

std::optional<Kernel> kernel_of(const torch::jit::Module& m) {
  std::optional<c10::IValue> k;
  if (auto type = m.type(); type->hasConstant("kernel_size"))
    k = type->getConstant("kernel_size");
  else if (m.hasattr("kernel_size"))
    k = m.attr("kernel_size");
  if (!k) {
    if (auto kernel = kernel_from_weight(m)) return kernel;
    const auto name = m.type()->name();  // a traced pooling module's: from its call's constants
    return name ? pool_kernel(name->name(), traced_pool_kernel(m)) : std::nullopt;
  }
  if (k->isInt()) return Kernel{{k->toInt()}, true};
  Kernel kernel;
  if (k->isTuple()) {
    for (const auto& e : k->toTupleRef().elements())
      if (e.isInt()) kernel.dims.push_back(e.toInt());
  } else if (k->isIntList()) {
    kernel.dims = k->toIntVector();
  } else {
    return std::nullopt;
  }
  return kernel;
}

std::vector<Param> params_of(const torch::jit::Module& m) {
  std::vector<Param> params;
  for (const auto& p : m.named_parameters(/*recurse=*/false)) {
    const at::Tensor& t = p.value;
    params.push_back({p.name, t.sizes().vec(), t.numel(), static_cast<int64_t>(t.element_size()),
                      t.requires_grad(), t.unsafeGetTensorImpl()});
  }
  return params;
}

int depth_of(const std::string& path) {
  if (path.empty()) return 0;
  return 1 + static_cast<int>(std::count(path.begin(), path.end(), '.'));
}

}  // namespace

ModuleIndex index_modules(const torch::jit::Module& root) {
  ModuleIndex index;
  auto& modules = index.tree.modules;
  std::unordered_map<std::string, int> by_path;
  for (const auto& named : root.named_modules()) {
    Module m;
    m.path = named.name;
    m.qualified_type = named.value.type()->name()->qualifiedName();
    m.type = last_component(m.qualified_type);
    m.depth = depth_of(m.path);
    auto dot = m.path.rfind('.');
    m.var_name = m.path.empty() ? m.type : m.path.substr(dot == std::string::npos ? 0 : dot + 1);
    if (!m.path.empty()) {
      m.parent = by_path.at(dot == std::string::npos ? "" : m.path.substr(0, dot));
      modules[m.parent].children.push_back(static_cast<int>(modules.size()));
    }
    m.params = params_of(named.value);
    m.kernel = kernel_of(named.value);
    const int i = static_cast<int>(modules.size());
    by_path[m.path] = i;
    index.by_object.emplace(named.value._ivalue().get(), i);
    modules.push_back(std::move(m));
  }
  return index;
}

}  // namespace modrec
