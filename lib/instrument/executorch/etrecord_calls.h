// The module calls of an ExecuTorch program, told by its ETRecord (load/executorch/etrecord.h)
// and the outputs its runtime logged as it ran each instruction (ETDump's intermediate outputs,
// kernels' only: a delegate runs as one instruction). Torch-free.
//
// The tree is the ETRecord's (a .pt2's of its edge program). A call is a run of consecutive nodes
// sharing a stack entry, found as a .pt2's are (load/pt2/stack_calls.h); it returns the value of
// its last node. A node's value is the logged output of an instruction running its debug handle,
// of its shape (paired in order); a node no instruction ran (a view memory planning made an alias
// of its input) is the last logged value before it in the call, seen in its shape when it holds as
// many elements.
#pragma once
#include <vector>

#include "load/executorch/etrecord.h"
#include "model/module_tree.h"

namespace modrec {

// One logged output: the instruction that made it, and its shape.
struct LoggedOutput {
  int64_t instruction = 0;
  Shape shape;
};

struct EtCall {
  int module = 0;   // in etrecord_tree's tree
  int parent = -1;  // the enclosing call's index among the calls; -1: the root's
  int output = -1;  // the logged output it returned (an index into `logged`); -1: none logged
  Shape shape;      // the result's shape: the logged output's, or the view's it was seen as
  size_t node = 0;  // its last node, in the record's: whose output the edge program declares
};

// The calls in the order they started.
std::vector<EtCall> etrecord_calls(const EtRecord& record, const ModuleTree& tree,
                                   const std::vector<LoggedOutput>& logged);

}  // namespace modrec
