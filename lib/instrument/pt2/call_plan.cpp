#include "instrument/pt2/call_plan.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "instrument/pt2/call_signature_args.h"
#include "instrument/pt2/noted_calls.h"
#include "instrument/pt2/untold_gradients.h"
#include "load/pt2/stack_calls.h"

namespace modrec::pt2 {
namespace {

void add_once(std::vector<std::string>& list, const std::string& name) {
  if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
}

bool contains(const std::vector<int>& chain, int call) {
  return std::find(chain.begin(), chain.end(), call) != chain.end();
}

// Whether the module at `path` is `scope` or inside it.
bool within(const std::string& path, const std::string& scope) {
  return scope.empty() || path == scope || (path.starts_with(scope) && path[scope.size()] == '.');
}

// A parameter's graph input: its place among the program's inputs (named_parameters() order) and
// the modules holding its tensor (a tied weight's every holder: T5's `shared` and
// `encoder.embed_tokens`).
struct HeldParameter {
  size_t order = 0;
  std::vector<std::string> holders;  // module paths
};
using HeldParameters = std::map<std::string, HeldParameter>;

HeldParameters held_parameters(const Program& program, const ModuleTree& tree) {
  std::map<const void*, std::vector<std::string>> holders;  // tensor -> module paths
  for (const Module& m : tree.modules)
    for (const Param& p : m.params)
      if (p.tensor) holders[p.tensor].push_back(m.path);
  HeldParameters held;
  for (size_t i = 0; i < program.inputs.size(); ++i) {
    const InputSpec& in = program.inputs[i];
    if (in.kind != InputSpec::Kind::parameter) continue;
    const size_t dot = in.target.rfind('.');
    const std::string owner = dot == std::string::npos ? "" : in.target.substr(0, dot);
    const int m = tree.find(owner);
    if (m < 0) continue;
    HeldParameter& h = held[in.value];
    h.order = i;
    h.holders = {owner};
    for (const Param& p : tree.modules[m].params)
      if (p.tensor && p.name == in.target.substr(dot + 1)) h.holders = holders.at(p.tensor);
  }
  return held;
}

// Fills each call's inputs and outputs from where values are produced and used.
class FlowPass {
 public:
  FlowPass(const std::set<std::string>& attributes, const HeldParameters& parameters,
           const ModuleTree& tree, CallPlan& plan)
      : plan_(plan), attributes_(attributes), parameters_(parameters), tree_(tree) {
    outside_.resize(plan.calls.size());
  }

  void node(size_t index, const Node& node, const std::vector<int>& chain) {
    for (const NodeArg& arg : node.inputs)
      for (const std::string& name : value_names(arg.value)) {
        const std::string from = source(name, chain);
        if (from != name) plan_.sources[index][name] = from;
        use(from, chain);
      }
    for (const Argument& out : node.outputs)
      for (const std::string& name : value_names(out)) produced_[name] = {index, chain};
    if (node.target.starts_with("torch.ops.aten.to.") && node.outputs.size() == 1 &&
        !node.inputs.empty() && node.inputs[0].value.kind == Argument::Kind::tensor)
      same_as_[value_names(node.outputs[0]).at(0)] = value_names(node.inputs[0].value).at(0);
  }

  // The graph's outputs: `user` ones are call 0's (forward's result).
  void graph_output(const Argument& value, bool user) {
    for (const std::string& name : value_names(value)) {
      use(name, {});
      if (user) add_once(plan_.calls[0].outputs, name);
    }
  }

  // Outputs in the order produced; the parameters a call takes from outside it after its other
  // inputs, in named_parameters() order (the order it uses them says nothing of its arguments':
  // weight_norm's _WeightNorm(g, v) uses v first).
  void finish() {
    for (size_t c = 1; c < plan_.calls.size(); ++c) {
      std::stable_sort(plan_.calls[c].outputs.begin(), plan_.calls[c].outputs.end(),
                       [&](const std::string& a, const std::string& b) {
                         return produced_.at(a).first < produced_.at(b).first;
                       });
      std::sort(outside_[c].begin(), outside_[c].end(),
                [&](const std::string& a, const std::string& b) {
                  return parameters_.at(a).order < parameters_.at(b).order;
                });
      for (const std::string& name : outside_[c]) plan_.calls[c].inputs.push_back(name);
    }
  }

 private:
  // `name` used by a node running in the calls `chain`: an input of each of them that did not
  // produce it, an output of each call that produced it and is not in `chain`.
  // An aten.to that was a no-op when traced (x.to(float32) of a float32 x: an RMSNorm's) gave
  // back x itself, and the tracer bound later uses of x to its result: used outside the call
  // that made it, it is x, as eager's caller sees it, and no output of that call.
  std::string source(const std::string& name, const std::vector<int>& chain) const {
    auto alias = same_as_.find(name);
    if (alias == same_as_.end()) return name;
    const std::vector<int>& made_in = produced_.at(name).second;
    if (made_in.empty() || contains(chain, made_in.back())) return name;
    return source(alias->second, chain);
  }

  void use(const std::string& name, const std::vector<int>& chain) {
    if (attributes_.count(name)) return take_parameter(name, chain);
    auto it = produced_.find(name);
    const std::vector<int> none;
    const std::vector<int>& made_in = it == produced_.end() ? none : it->second.second;
    for (int call : chain)
      if (!contains(made_in, call)) add_once(plan_.calls[call].inputs, name);
    for (int call : made_in)
      if (call != 0 && !contains(chain, call)) add_once(plan_.calls[call].outputs, name);
  }

  // A parameter is an attribute of the modules holding it, no argument; a call none of whose
  // modules holds it was given it (a parametrization's call: `_WeightNorm(original0, original1)`
  // of its ParametrizationList's parameters).
  void take_parameter(const std::string& name, const std::vector<int>& chain) {
    auto held = parameters_.find(name);
    if (held == parameters_.end()) return;
    for (int call : chain) {
      const std::string& scope = tree_.modules[plan_.calls[call].module].path;
      const auto& holders = held->second.holders;
      if (std::none_of(holders.begin(), holders.end(),
                       [&](const std::string& h) { return within(h, scope); }))
        add_once(outside_[call], name);
    }
  }

  CallPlan& plan_;
  const std::set<std::string>& attributes_;  // graph inputs: parameters, buffers, constants
  const HeldParameters& parameters_;
  const ModuleTree& tree_;
  std::vector<std::vector<std::string>> outside_;  // per call: parameters it was given
  std::map<std::string, std::pair<size_t, std::vector<int>>> produced_;  // node, its calls
  std::map<std::string, std::string> same_as_;  // an aten.to's result -> its input
};

bool same_call(const StackEntry& a, const StackEntry& b) { return a.key == b.key; }

// Whether `stack` begins with every entry of `prefix`.
bool begins_with(const std::vector<StackEntry>& stack, const std::vector<StackEntry>& prefix) {
  return prefix.size() <= stack.size() &&
         std::equal(prefix.begin(), prefix.end(), stack.begin(), same_call);
}

}  // namespace

std::vector<StackEntry> running_stack(const Node& node) {
  // The entries every subgraph node's stack begins with. A subgraph whose nodes have none (a
  // non-strict torch.cond branch's, an empty branch) tells nothing: the node's own stack holds.
  std::optional<std::vector<StackEntry>> shared;
  for (const Graph& graph : node.graphs) {
    bool told = false;
    for (const Node& inner : graph.nodes) {
      if (inner.module_stack.empty()) continue;
      told = true;
      if (!shared) {
        shared = inner.module_stack;
        continue;
      }
      const auto end = std::mismatch(shared->begin(), shared->end(), inner.module_stack.begin(),
                                     inner.module_stack.end(), same_call)
                           .first;
      shared->erase(end, shared->end());
    }
    if (!told) return node.module_stack;
  }
  if (!shared || shared->size() <= node.module_stack.size() ||
      !begins_with(*shared, node.module_stack))
    return node.module_stack;
  return *shared;
}

namespace {

CallPlan plan_nodes(const std::vector<Node>& nodes, const std::set<std::string>& attributes,
                    const HeldParameters& parameters, const std::vector<StackEntry>& base,
                    const ModuleTree& tree, const std::function<void(FlowPass&)>& outputs) {
  std::vector<std::vector<StackEntry>> stacks;
  for (const Node& node : nodes) stacks.push_back(running_stack(node));
  StackCalls walked = stack_calls(stacks, tree, base);
  CallPlan plan;
  for (const StackCall& call : walked.calls) plan.calls.push_back({call.module, call.parent});
  plan.events_before = std::move(walked.events_before);
  plan.sources.resize(nodes.size());
  FlowPass flow(attributes, parameters, tree, plan);
  for (size_t i = 0; i < nodes.size(); ++i) flow.node(i, nodes[i], walked.chains[i]);
  outputs(flow);
  flow.finish();
  return plan;
}

// The calls whose signature the archive keeps (CallSignature) take the graph values it names, in
// forward's order: eager hooks' arguments, one the call does not use included (a rotary
// embedding's hidden states), where the graph's call has only the values its nodes read.
void take_signatures(CallPlan& plan, const Program& program, const ModuleTree& tree) {
  std::map<int, int> calls_of;  // module -> its calls so far
  for (size_t c = 1; c < plan.calls.size(); ++c) {
    PlannedCall& call = plan.calls[c];
    const int n = calls_of[call.module]++;
    const std::string& path = tree.modules[call.module].path;
    const auto told = program.call_signatures.find(n ? path + "@" + std::to_string(n) : path);
    if (told == program.call_signatures.end()) continue;
    if (auto names = signature_tensors(told->second.inputs, program)) {
      call.inputs = *names;
      call.positional = positional_arguments(told->second, std::nullopt);
    }
  }
}

// Each call under the path torchinfo's hooks report it by (ModuleTree::hooked_path): one module
// object at several paths is one module to them, where the graph names a call by the path it was
// made through.
CallPlan hooked_paths(CallPlan plan, const ModuleTree& tree) {
  for (PlannedCall& call : plan.calls) call.module = tree.hooked_path(call.module);
  return plan;
}

}  // namespace

CallPlan plan_calls(const Program& program, const ModuleTree& tree, const ExportNotes* notes) {
  std::set<std::string> attributes;
  for (const InputSpec& in : program.inputs)
    if (in.kind != InputSpec::Kind::user_input) attributes.insert(in.value);
  const HeldParameters parameters = held_parameters(program, tree);
  CallPlan plan = plan_nodes(program.nodes, attributes, parameters, {}, tree, [&](FlowPass& flow) {
    for (const OutputSpec& out : program.outputs) flow.graph_output(out.value, out.user);
  });
  if (!notes) {
    take_signatures(plan, program, tree);
    return plan;
  }
  CallPlan noted = with_noted_calls(std::move(plan), program, tree, *notes);
  mark_untold_gradients(noted, program, tree);
  return hooked_paths(std::move(noted), tree);
}

CallPlan plan_subgraph(const Graph& graph, const std::set<std::string>& attributes,
                       const std::vector<StackEntry>& base, const ModuleTree& tree) {
  return hooked_paths(plan_nodes(graph.nodes, attributes, {}, base, tree,
                                 [&](FlowPass& flow) {
                                   for (const Argument& out : graph.outputs)
                                     flow.graph_output(out, false);
                                 }),
                      tree);
}

}  // namespace modrec::pt2
