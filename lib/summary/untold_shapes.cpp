#include "summary/untold_shapes.h"

#include <algorithm>

#include "util/log.h"

namespace modrec {
namespace {

void add_once(std::vector<std::string>& paths, const std::string& path) {
  if (std::find(paths.begin(), paths.end(), path) == paths.end()) paths.push_back(path);
}

}  // namespace

UntoldShapes untold_shapes(const CallTrace& trace, const ModuleTree& tree,
                           const SummaryOptions& options) {
  UntoldShapes untold;
  const std::vector<Column> columns = effective_columns(options, trace.ran);
  auto shows = [&](Column c) {
    return std::find(columns.begin(), columns.end(), c) != columns.end();
  };
  for (const Call& call : trace.calls) {
    const Module& module = tree.modules[call.module];
    if (module.depth > options.depth) continue;  // no row
    if (call.keywords_untold && shows(Column::input_size)) add_once(untold.inputs, module.path);
    if (call.structure_untold && shows(Column::output_size) && call.outputs.tensors.size() > 1)
      add_once(untold.outputs, module.path);
  }
  return untold;
}

void warn_untold_shapes(const UntoldShapes& untold, const std::string& path) {
  if (!untold.inputs.empty())
    log::warn(path, ": calls without a signature (", untold.inputs.size(),
              "): ", log::listed(untold.inputs),
              "; their Input Shape may not be torchinfo's (keyword or unread arguments): "
              "modrec.export keeps them");
  if (!untold.outputs.empty())
    log::warn(path, ": calls returning several tensors, no signature (", untold.outputs.size(),
              "): ", log::listed(untold.outputs),
              "; their Output Shape may not be torchinfo's (a dict, another order): modrec.export "
              "keeps them");
}

}  // namespace modrec
