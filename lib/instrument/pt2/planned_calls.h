// The plan of a torch.export graph's module calls, as call_plan.h derives it and noted_calls.h
// and untold_gradients.h complete it (torch-free types). A call is a run of consecutive nodes
// sharing a stack entry; its inputs and outputs are graph values (call_plan.h says which).
#pragma once
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "load/pt2/export_notes.h"  // NotedConstant
#include "load/pt2/program.h"
#include "load/pt2/stack_calls.h"  // CallEvent

namespace modrec::pt2 {

struct CallArgument;

// A graph value a call's argument holds (one of PlannedCall::inputs).
struct GraphValue {
  std::string name;
};
struct ArgumentTuple {
  std::vector<CallArgument> items;
};
struct ArgumentDict {                // **kwargs'
  std::vector<std::string> keys;     // in order
  std::vector<CallArgument> values;  // keys[i]'s is values[i]
};

// A call's argument as eager forward got it (modrec.export's notes): a graph value, a constant, or
// a tuple or dict of them.
struct CallArgument {
  std::variant<GraphValue, NotedConstant, ArgumentTuple, ArgumentDict> held;
};

struct PlannedCall {
  int module = 0;   // index in the ModuleTree
  int parent = -1;  // the enclosing call's index in CallPlan::calls; -1 for the root
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  // With modrec.export's notes: the result's structure, whose leaves are `outputs`, in order;
  // nullopt: the value, or a tuple of several (the root's is the program's).
  std::optional<TreeSpec> out_spec;
  // With modrec.export's notes, when forward's arguments hold more than tensors (an LSTM's
  // hx=None, a flag, a tuple of states, **kwargs' dict): those arguments in order; nullopt: the
  // call's arguments are `inputs`.
  std::optional<std::vector<CallArgument>> in_spec;
  // How many of the call's arguments (`inputs`, or in_spec's) eager forward was given by position,
  // the rest by keyword, where the archive's signature tells (CallSignature::positional); nullopt:
  // not told, all are taken as positional (a forward hook's `inputs`: torchinfo's input size).
  std::optional<size_t> positional;
  // Non-empty: why the graph cannot tell the call's input gradients (grad_input) and output
  // gradients (grad_output) as eager hooks see them (untold_gradients.h, noted_calls.h).
  std::string untold_inputs, untold_outputs;
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

}  // namespace modrec::pt2
