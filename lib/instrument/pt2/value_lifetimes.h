// When a graph run lets each of its values go: after the node that reads it last (a module
// call's start or end reading it counts as a read there), as PyTorch's own interpreter does (FX's
// generated code sets a value to None after its last use). Without it every value lived until
// the graph ended: more memory than PyTorch's run of the same program, and `peak_bytes` above the
// profiler's on the same nodes. A value no one reads goes right after the node that made it; the
// values in `kept` (the graph's outputs) and those read after the last node never go
// (torch-free).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "instrument/pt2/planned_calls.h"
#include "load/pt2/program.h"

namespace modrec::pt2 {

// Per node index: the values to let go once that node ran.
std::vector<std::vector<std::string>> last_uses(const std::vector<Node>& nodes,
                                                const CallPlan& plan,
                                                const std::set<std::string>& kept);

// The graph values `arguments` names, as `value_names` reads them.
std::set<std::string> names_of(const std::vector<Argument>& arguments);

}  // namespace modrec::pt2
