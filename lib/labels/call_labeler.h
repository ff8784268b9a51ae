// The torchinfo label ("1-3") of each module call, known as soon as the call starts: a label
// depends only on the calls before it, so calls are numbered one by one as a pass makes them,
// for record's selectors and edits, in time linear in the number of calls (torch-free).
#pragma once
#include <string>
#include <vector>

#include "model/call_trace.h"
#include "model/module_tree.h"
#include "summary/row_list.h"

namespace modrec {

class CallLabeler {
 public:
  explicit CallLabeler(const ModuleTree& tree) : tree_(tree), rows_(tree) {}

  // The label of the next call of the pass, a call of `module` (calls in the order they start).
  const std::string& add(int module);
  // Every call's label so far, by call index.
  const std::vector<std::string>& labels() const { return labels_; }

 private:
  const ModuleTree& tree_;
  RowList rows_;
  ContainerWalk walk_;
  DepthNumbering numbering_;
  size_t numbered_ = 0;  // rows of the list numbered so far
  std::vector<std::string> labels_;
};

// The label of each call of a whole pass (index = call index), as build_rows gives them.
std::vector<std::string> call_labels(const ModuleTree& tree, const CallTrace& trace);

}  // namespace modrec
