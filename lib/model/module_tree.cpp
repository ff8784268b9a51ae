#include "model/module_tree.h"

namespace modrec {

std::optional<Kernel> conv_kernel(const std::string& type, const Shape& weight) {
  if (type.rfind("Conv", 0) != 0 || weight.size() < 3) return std::nullopt;
  return Kernel{{weight.begin() + 2, weight.end()}, false};
}

int ModuleTree::find(const std::string& path) const {
  for (size_t i = 0; i < modules.size(); ++i)
    if (modules[i].path == path) return static_cast<int>(i);
  return -1;
}

}  // namespace modrec
