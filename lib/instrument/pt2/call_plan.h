// Where the module calls of a torch.export graph begin and end, derived once from the nodes'
// nn_module_stack (torch-free). A call is a run of consecutive nodes sharing a stack entry, as
// load/pt2/stack_calls.h finds them for an ETRecord too. Its inputs are the values its nodes
// consume from outside it (parameters, buffers and constants excepted: those are attributes
// in eager PyTorch, not arguments), in the order first used, then the parameters that no module
// inside the call holds (a parametrization is given its ParametrizationList's originals), in
// named_parameters() order; its outputs are the values its nodes produce that are used outside
// it, in the order produced.
#pragma once
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "instrument/pt2/planned_calls.h"
#include "load/pt2/export_notes.h"
#include "load/pt2/program.h"
#include "model/module_tree.h"

namespace modrec::pt2 {

// With `notes` (modrec.export's), also the calls that ran no operator, and which of those have
// gradients the graph cannot tell (untold_gradients.h); notes that do not match the graph are one
// warning and left out. Either way, a call whose signature the archive keeps (CallSignature)
// takes the arguments it names, in forward's order.
CallPlan plan_calls(const Program& program, const ModuleTree& tree,
                    const ExportNotes* notes = nullptr);

// The calls a higher-order operator's subgraph makes when it runs inside the calls that
// `base` (the operator's node's stack) names: those are its call 0, the rest start and end in it.
// `attributes` are its inputs bound to parameters, buffers and constants.
CallPlan plan_subgraph(const Graph& graph, const std::set<std::string>& attributes,
                       const std::vector<StackEntry>& base, const ModuleTree& tree);

// The module calls a node runs in: its stack, but a higher-order operator's node that carries
// a shorter stack than all of its subgraphs' nodes (strict export writes only the root's for a
// no_grad block inside block.inner) runs in the calls they all share; else the calls around it
// would end before it and start again after (block and block.inner split into three calls each).
std::vector<StackEntry> running_stack(const Node& node);

}  // namespace modrec::pt2
