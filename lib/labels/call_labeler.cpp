#include "labels/call_labeler.h"

namespace modrec {

// Container rows are only ever inserted before the newest call's row, so every row before it
// is final once the walk has passed it, and each place is counted once.
const std::string& CallLabeler::add(int module) {
  const int call = static_cast<int>(labels_.size());
  labels_.emplace_back();
  rows_.add_call(tree_, module, call);
  walk_.note_call(tree_.object_of(module));
  walk_.walk(tree_, rows_);
  for (; numbered_ < rows_.list.size(); ++numbered_) {
    const LayerRow& row = rows_.objects[rows_.list[numbered_]];
    const int index = numbering_.next(row.depth);
    if (row.call >= 0) labels_[row.call] = row_label(row.depth, index);
  }
  return labels_.back();
}

std::vector<std::string> call_labels(const ModuleTree& tree, const CallTrace& trace) {
  CallLabeler labeler(tree);
  for (const Call& call : trace.calls) labeler.add(call.module);
  return labeler.labels();
}

}  // namespace modrec
