// Where the module calls of a torch.export graph begin and end, derived once from the nodes'
// nn_module_stack (torch-free). A call is a run of consecutive nodes sharing a stack entry (its
// key tells a module's second call, "@1", from its first). Its inputs are the values its nodes
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

#include "load/pt2/export_notes.h"
#include "load/pt2/program.h"
#include "model/module_tree.h"

namespace modrec::pt2 {

struct PlannedCall {
  int module = 0;   // index in the ModuleTree
  int parent = -1;  // the enclosing call's index in CallPlan::calls; -1 for the root
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  // With modrec.export's notes: the result's structure, whose leaves are `outputs`, in order;
  // nullopt: the value, or a tuple of several (the root's is the program's).
  std::optional<TreeSpec> out_spec;
  // With modrec.export's notes, when forward's arguments hold more than tensors (an LSTM's
  // hx=None, a flag, a tuple of states, **kwargs' dict): those arguments in order, as the notes
  // write values, each tensor {"value": name} (one of `inputs`); null: the call's arguments are
  // `inputs`.
  nlohmann::json in_spec;
  // How many of the call's arguments (`inputs`, or in_spec's) eager forward was given by position,
  // the rest by keyword, where the archive's signature tells (CallSignature::positional); nullopt:
  // not told, all are taken as positional (a forward hook's `inputs`: torchinfo's input size).
  std::optional<size_t> positional;
  // Non-empty: why the graph cannot tell the call's input gradients (grad_input) and output
  // gradients (grad_output) as eager hooks see them (untold_gradients.h, noted_calls.h).
  std::string untold_inputs, untold_outputs;
};

// A call that starts (`enter`) or ends.
struct CallEvent {
  int call = 0;
  bool enter = false;
  bool operator==(const CallEvent&) const = default;
};

struct CallPlan {
  std::vector<PlannedCall> calls;  // in the order they start; calls[0] is the root's
  // Before node i (i == nodes.size(): after the last), the calls that end and start there, in
  // order: from the nodes' stacks, those that end innermost first, then those that start
  // outermost first; modrec.export's notes add the calls that run no node (an Identity) where
  // eager PyTorch made them. The root's call spans the whole graph.
  std::vector<std::vector<CallEvent>> events_before;
  // Per node: values it reads under another name (an aten.to that was a no-op when traced is its
  // input outside the call that made it).
  std::vector<std::map<std::string, std::string>> sources;
};

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

// The tensors of a call's signature (CallSignature's inputs or outputs), constants left out;
// nullopt when it holds another value (a list of tensors, a symbolic size) or names a tensor the
// program lacks.
std::optional<std::vector<std::string>> signature_tensors(const std::vector<Argument>& told,
                                                          const Program& program);

// How many of a call's arguments, given as `in_spec` (PlannedCall's: the notes') or else as
// `told`'s tensors (signature_tensors), were passed by position; nullopt when `told` does not say.
std::optional<size_t> positional_arguments(const CallSignature& told,
                                           const nlohmann::json& in_spec);

// The module calls a node runs in: its stack, but a higher-order operator's node that carries
// a shorter stack than all of its subgraphs' nodes (strict export writes only the root's for a
// no_grad block inside block.inner) runs in the calls they all share; else the calls around it
// would end before it and start again after (block and block.inner split into three calls each).
std::vector<StackEntry> running_stack(const Node& node);

}  // namespace modrec::pt2
