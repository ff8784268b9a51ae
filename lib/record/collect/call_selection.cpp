#include "record/collect/call_selection.h"

namespace modrec {

bool CallSelection::operator()(int, int module) {
  const std::string& label = labeler_.add(module);
  modules_.push_back(module);
  numbers_.push_back(++calls_of_[module]);
  const Module& m = tree_.modules[module];
  return matcher_.matches({label, m.path, m.type});
}

std::vector<LayerRef> CallSelection::layer_refs() const {
  std::vector<LayerRef> refs;
  for (size_t i = 0; i < modules_.size(); ++i) {
    const Module& m = tree_.modules[modules_[i]];
    refs.push_back({labels()[i], m.path, m.type});
  }
  return refs;
}

}  // namespace modrec
