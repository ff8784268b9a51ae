#include "model/module_tree.h"

namespace modrec {

int ModuleTree::find(const std::string& path) const {
  for (size_t i = 0; i < modules.size(); ++i)
    if (modules[i].path == path) return static_cast<int>(i);
  return -1;
}

}  // namespace modrec
