// The module calls a graph's nodes ran in, from their nn_module_stack: what a .pt2's graph
// (instrument/pt2/call_plan.h) and an ETRecord's edge program (instrument/executorch/
// etrecord_calls.h) both record (torch-free). A call is a run of consecutive nodes sharing a stack
// entry (its key tells a module's second call, "@1", from its first); an entry that names no
// module of the tree below the root is no call.
#pragma once
#include <vector>

#include "load/pt2/program.h"
#include "model/module_tree.h"

namespace modrec::pt2 {

// A call that starts (`enter`) or ends.
struct CallEvent {
  int call = 0;
  bool enter = false;
  bool operator==(const CallEvent&) const = default;
};

struct StackCall {
  int module = 0;   // index in the ModuleTree
  int parent = -1;  // the enclosing call's index in StackCalls::calls; -1 for call 0
};

struct StackCalls {
  // In the order they start; calls[0] is the root's, or the calls open when the graph starts.
  std::vector<StackCall> calls;
  // Before node i (i == nodes: after the last), the calls that end and start there, in order:
  // those that end innermost first, then those that start outermost first. Call 0 spans the
  // whole graph.
  std::vector<std::vector<CallEvent>> events_before;
  std::vector<std::vector<int>> chains;  // per node, the calls it runs in, outermost first
};

// The calls of nodes whose stacks are `stacks` (outermost first), in a graph that starts inside
// the calls `base` names (a subgraph's node's stack): those are call 0, neither entered nor left.
// A node without a stack (torch.cond's branches in a non-strict export) or one outside the base
// runs in the base's calls.
StackCalls stack_calls(const std::vector<std::vector<StackEntry>>& stacks, const ModuleTree& tree,
                       const std::vector<StackEntry>& base = {});

}  // namespace modrec::pt2
