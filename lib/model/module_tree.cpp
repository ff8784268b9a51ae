#include "model/module_tree.h"

#include <algorithm>
#include <regex>

namespace modrec {

std::optional<Kernel> conv_kernel(const std::string& type, const Shape& weight) {
  const bool conv = type.starts_with("Conv") || type.starts_with("ParametrizedConv");
  if (!conv || weight.size() < 3) return std::nullopt;
  return Kernel{{weight.begin() + 2, weight.end()}, false};
}

std::optional<Kernel> pool_kernel(const std::string& type, const Shape& kernel_size) {
  static const std::regex pooling("(Max|Avg|LP)Pool[123]d");  // the modules with a kernel_size
  if (kernel_size.empty() || !std::regex_match(type, pooling)) return std::nullopt;
  const int64_t first = kernel_size[0];
  if (std::all_of(kernel_size.begin(), kernel_size.end(), [&](int64_t d) { return d == first; }))
    return Kernel{{first}, true};
  return Kernel{kernel_size, false};
}

int ModuleTree::hooked_path(int m) const {
  const int object = object_of(m);
  for (int i = static_cast<int>(modules.size()) - 1; i > object; --i)
    if (modules[i].same_as == object) return i;
  return object;
}

int ModuleTree::find(const std::string& path) const {
  for (size_t i = 0; i < modules.size(); ++i)
    if (modules[i].path == path) return static_cast<int>(i);
  return -1;
}

std::string call_name(const Module& module, const std::string& label) {
  if (module.path.empty()) return module.type;
  return label + " " + module.path + " (" + module.type + ")";
}

}  // namespace modrec
