#include "record/call_selection.h"

#include <map>

#include "summary/rows.h"

namespace modrec {

std::vector<int> call_numbers(const CallTrace& trace) {
  std::map<int, int> seen;
  std::vector<int> out;
  for (const auto& c : trace.calls) out.push_back(++seen[c.module]);
  return out;
}

std::vector<LayerRef> layer_refs(const ModuleTree& tree, const CallTrace& trace,
                                 const std::vector<std::string>& labels) {
  std::vector<LayerRef> refs;
  for (size_t i = 0; i < trace.calls.size(); ++i) {
    const Module& m = tree.modules[trace.calls[i].module];
    refs.push_back({labels[i], m.path, m.type});
  }
  return refs;
}

bool CallSelection::operator()(int call) const {
  const Module& m = tree_.modules[trace_.trace().calls[call].module];
  std::string label = std::to_string(m.depth) + "-0";  // matches no label selector
  if (matcher_.needs_label(m.depth)) label = call_labels(tree_, trace_.trace())[call];
  return matcher_.matches({label, m.path, m.type});
}

}  // namespace modrec
