#include "instrument/pt2/noted_calls.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "util/log.h"

namespace modrec::pt2 {
namespace {

using nlohmann::json;

// A step of a pass over the graph: a node, or a call that starts or ends.
struct Step {
  bool node = false;
  int index = 0;  // the node's, or the call's
  bool enter = false;
};

// A side (arguments or result) of a call the graph shows: its eager tensors, and the graph values
// they are when the graph's call has as many, of the same shapes (else `names` is empty).
struct Side {
  std::vector<NotedTensor> tensors;
  std::vector<std::string> names;
};

std::vector<NotedTensor> tensors_of(const std::vector<NotedValue>& values) {
  std::vector<NotedTensor> out;
  for (const NotedValue& v : values)
    for (NotedTensor& t : noted_tensors(v)) out.push_back(std::move(t));
  return out;
}

bool same_shape(const std::vector<int64_t>& eager, const Program& program,
                const std::string& name) {
  const auto it = program.tensor_values.find(name);
  if (it == program.tensor_values.end() || it->second.sizes.size() != eager.size()) return false;
  for (size_t d = 0; d < eager.size(); ++d)
    if (it->second.sizes[d] != -1 && it->second.sizes[d] != eager[d]) return false;  // -1: symbolic
  return true;
}

// The graph's values of a call's side (inputs in the order first used, outputs in the order made)
// matched to its eager tensors (in forward's order) by shape: each tensor's shape must be that of
// exactly one value, each value's of one tensor.
Side side(std::vector<NotedTensor> tensors, const std::vector<std::string>& names,
          const Program& program) {
  Side s{std::move(tensors), {}};
  if (s.tensors.size() != names.size()) return s;
  std::vector<std::string> matched;
  for (const NotedTensor& t : s.tensors) {
    std::vector<std::string> same;
    for (const std::string& name : names)
      if (same_shape(t.shape, program, name)) same.push_back(name);
    if (same.size() != 1 || std::find(matched.begin(), matched.end(), same[0]) != matched.end())
      return s;
    matched.push_back(same[0]);
  }
  s.names = std::move(matched);
  return s;
}

// The structure (as the program's out_spec) of a noted value made of tensors, tuples, lists and
// dicts; nullopt when it holds anything else.
std::optional<TreeSpec> spec_of(const NotedValue& value) {
  using T = TreeSpec::Type;
  if (value.contains("tensor")) return TreeSpec{};
  const bool is_dict = value.contains("dict");
  const char* field = value.contains("tuple")  ? "tuple"
                      : value.contains("list") ? "list"
                      : is_dict                ? "dict"
                                               : nullptr;
  if (!field) return std::nullopt;
  TreeSpec spec{value.contains("tuple") ? T::tuple : is_dict ? T::dict : T::list, {}, {}};
  for (const json& item : value[field]) {
    if (is_dict && !item[0].is_string()) return std::nullopt;  // dicts with string keys only
    if (is_dict) spec.keys.push_back(item[0].get<std::string>());
    std::optional<TreeSpec> child = spec_of(is_dict ? item[1] : item);
    if (!child) return std::nullopt;
    spec.children.push_back(std::move(*child));
  }
  return spec;
}

// A noted argument with its tensors replaced by the graph values `names` gives them (depth-first,
// from `next`); null where it holds what a call's argument list does not carry here (a list, a
// dict, another object).
json argument_spec(const NotedValue& value, const std::vector<std::string>& names, size_t& next) {
  if (value.contains("tensor")) return {{"value", names.at(next++)}};
  if (value.contains("const")) return value;
  if (!value.contains("tuple")) return nullptr;
  json items = json::array();
  for (const NotedValue& item : value["tuple"]) {
    items.push_back(argument_spec(item, names, next));
    if (items.back().is_null()) return nullptr;
  }
  return {{"tuple", items}};
}

// A call's arguments as PlannedCall::in_spec, given the graph values of its tensors in forward's
// order; null when they are tensors only (the graph's inputs say it all) or cannot be carried.
json arguments_spec(const NotedCall& call, const std::vector<std::string>& names) {
  if (std::all_of(call.args.begin(), call.args.end(),
                  [](const NotedValue& v) { return v.contains("tensor"); }))
    return nullptr;
  json out = json::array();
  size_t next = 0;
  for (const NotedValue& arg : call.args) {
    out.push_back(argument_spec(arg, names, next));
    if (out.back().is_null()) return nullptr;
  }
  return out;
}

// Why a call's input gradients cannot be told: eager forward gave it one tensor several times
// (self-attention's attn(x, x, x)), so eager hooks see each argument's gradient apart, where the
// graph has one value whose gradient sums them. Empty when each tensor is given once.
std::string repeated_argument(const NotedCall& call) {
  const std::vector<NotedTensor> args = tensors_of(call.args);
  for (size_t i = 0; i < args.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (args[i].id == args[j].id && args[i].version == args[j].version)
        return call.path +
               " is given one tensor several times, one value of the .pt2 graph: its gradient "
               "would sum every argument's, where eager hooks see each apart";
  return "";
}

std::optional<std::string> value_in(const Side& side, const NotedTensor& t) {
  for (size_t i = 0; i < side.names.size(); ++i)
    if (side.tensors[i].id == t.id && side.tensors[i].version == t.version) return side.names[i];
  return std::nullopt;
}

class NotedPlan {
 public:
  NotedPlan(const CallPlan& plan, const Program& program, const ModuleTree& tree,
            const ExportNotes& notes)
      : plan_(plan), program_(program), tree_(tree), calls_(notes.calls) {
    for (const InputSpec& in : program.inputs)
      if (in.kind == InputSpec::Kind::user_input) root_inputs_.push_back(in.value);
    visit_nodes(program.nodes, [&](const Node& node) {
      for (const StackEntry& entry : node.module_stack) ran_nodes_.insert(entry.path);
    });
    align();
    order_eager_events();
    for (size_t i = 0; i < program.nodes.size(); ++i)
      for (const Argument& out : program.nodes[i].outputs)
        for (const std::string& name : value_names(out)) made_by_[name] = static_cast<int>(i);
  }

  CallPlan merged() {
    CallPlan out;
    out.sources = plan_.sources;
    for (size_t e = 0; e < calls_.size(); ++e) out.calls.push_back(planned(e));
    out.events_before.assign(program_.nodes.size() + 1, {});
    size_t node = 0;
    for (const Step& step : steps(out.calls))
      if (step.node)
        ++node;
      else
        out.events_before[node].push_back({step.index, step.enter});
    return out;
  }

 private:
  // The graph's calls are the eager calls that ran an operator, in the same order and nesting.
  void align() {
    match_.assign(calls_.size(), -1);
    match_[0] = 0;
    size_t p = 1;
    for (size_t e = 1; e < calls_.size(); ++e) {
      const int m = tree_.find(calls_[e].path);
      if (m <= 0) throw NotesError("a call of " + calls_[e].path + ", a module the program lacks");
      if (p < plan_.calls.size() && plan_.calls[p].module == m)
        match_[e] = static_cast<int>(p++);
      else if (ran_nodes_.count(calls_[e].path))
        throw NotesError("the call of " + calls_[e].path +
                         " runs operators the program does not show as its own call");
    }
    if (p != plan_.calls.size())
      throw NotesError("the graph's call of " + tree_.modules[plan_.calls[p].module].path +
                       " is not among the eager calls");
    for (size_t e = 1; e < calls_.size(); ++e)
      if (match_[e] > 0 && match_[calls_[e].parent] != plan_.calls[match_[e]].parent)
        throw NotesError("the call of " + calls_[e].path + " is inside another call in the graph");
    in_.resize(calls_.size());
    out_.resize(calls_.size());
    for (size_t e = 0; e < calls_.size(); ++e)
      if (match_[e] >= 0) {
        const PlannedCall& graph = plan_.calls[match_[e]];
        in_[e] = side(tensors_of(calls_[e].args), e == 0 ? root_inputs_ : graph.inputs, program_);
        out_[e] = side(noted_tensors(calls_[e].output), graph.outputs, program_);
      }
  }

  // Every call's start and end (the root's left out) in eager order.
  void order_eager_events() {
    std::vector<int> open;
    const auto leave = [&] {
      leave_at_[open.back()] = events_.size();
      events_.push_back({false, open.back(), false});
      open.pop_back();
    };
    for (size_t e = 1; e < calls_.size(); ++e) {
      while (!open.empty() && open.back() != calls_[e].parent) leave();
      enter_at_[static_cast<int>(e)] = events_.size();
      events_.push_back({false, static_cast<int>(e), true});
      open.push_back(static_cast<int>(e));
    }
    while (!open.empty()) leave();
  }

  // The graph value that tensor `t` of call `e` (which ran no operator) is: where the first graph
  // call after it takes or returns the same tensor (what the graph goes on with: an op eager
  // PyTorch skips, as flatten of a 2-d tensor, is a new value in the graph), else where the
  // closest one before it did.
  std::string value_of(const NotedTensor& t, int e) const {
    const auto told = [&](const Step& ev) -> std::optional<std::string> {
      if (match_[ev.index] < 0) return std::nullopt;
      return value_in(ev.enter ? in_[ev.index] : out_[ev.index], t);
    };
    for (size_t i = leave_at_.at(e) + 1; i < events_.size(); ++i)
      if (auto name = told(events_[i])) return *name;
    if (auto name = value_in(out_[0], t)) return *name;
    for (size_t i = enter_at_.at(e); i-- > 0;)
      if (auto name = told(events_[i])) return *name;
    if (auto name = value_in(in_[0], t)) return *name;
    throw NotesError("which graph value the call of " + calls_[e].path + " takes is not told");
  }

  // A call the graph has, its result in eager forward's structure when its values are told; one
  // without nodes, its tensors the graph values they are. Either's input gradients are untold
  // when eager forward gave it one tensor several times.
  PlannedCall planned(size_t e) const {
    PlannedCall call = match_[e] >= 0 ? graph_call(e) : nodeless_call(e);
    if (e > 0) call.untold_inputs = repeated_argument(calls_[e]);
    return call;
  }

  PlannedCall graph_call(size_t e) const {
    PlannedCall call = plan_.calls[match_[e]];
    call.parent = calls_[e].parent;
    if (e > 0 && !out_[e].names.empty()) {
      call.out_spec = spec_of(calls_[e].output);
      if (call.out_spec) call.outputs = out_[e].names;
    }
    if (e > 0 && !in_[e].names.empty()) call.in_spec = arguments_spec(calls_[e], in_[e].names);
    return call;
  }

  PlannedCall nodeless_call(size_t e) const {
    PlannedCall call{
        tree_.find(calls_[e].path), calls_[e].parent, {}, {}, spec_of(calls_[e].output)};
    const std::vector<NotedTensor> args = tensors_of(calls_[e].args);
    for (const NotedTensor& t : args) call.inputs.push_back(value_of(t, static_cast<int>(e)));
    for (const NotedTensor& t : noted_tensors(calls_[e].output)) {
      const auto given = std::find_if(args.begin(), args.end(), [&](const NotedTensor& a) {
        return a.id == t.id && a.version == t.version;
      });
      if (given == args.end())
        throw NotesError("the call of " + calls_[e].path + " returns a tensor it was not given");
      call.outputs.push_back(call.inputs[given - args.begin()]);
    }
    call.in_spec = arguments_spec(calls_[e], call.inputs);
    return call;
  }

  // The graph's steps with the eager calls that have no node among them: each right after the
  // step before it, once the node making the values it takes has run.
  std::vector<Step> steps(const std::vector<PlannedCall>& calls) const {
    std::vector<int> eager_of(plan_.calls.size());
    for (size_t e = 0; e < calls_.size(); ++e)
      if (match_[e] >= 0) eager_of[match_[e]] = static_cast<int>(e);
    std::vector<Step> graph;
    for (size_t i = 0; i < plan_.events_before.size(); ++i) {
      for (const CallEvent& ev : plan_.events_before[i])
        graph.push_back({false, eager_of[ev.call], ev.enter});
      if (i < program_.nodes.size()) graph.push_back({true, static_cast<int>(i), false});
    }
    std::vector<Step> out;
    size_t g = 0;
    int nodes_run = 0;
    const auto run_nodes_to = [&](int last) {
      while (g < graph.size() && graph[g].node && graph[g].index <= last) {
        out.push_back(graph[g++]);
        ++nodes_run;
      }
    };
    for (const Step& ev : events_) {
      if (match_[ev.index] >= 0) {
        run_nodes_to(static_cast<int>(program_.nodes.size()));
        if (g == graph.size() || graph[g].index != ev.index || graph[g].enter != ev.enter)
          throw NotesError("the graph's calls start and end in another order than the eager ones");
        out.push_back(graph[g++]);
        continue;
      }
      if (ev.enter && match_[calls_[ev.index].parent] >= 0) {
        int last = -1;
        for (const std::string& name : calls[ev.index].inputs)
          if (auto it = made_by_.find(name); it != made_by_.end())
            last = std::max(last, it->second);
        run_nodes_to(last);
        if (nodes_run <= last)
          throw NotesError("the call of " + calls_[ev.index].path +
                           " takes a value made after the calls around it");
      }
      out.push_back(ev);
    }
    run_nodes_to(static_cast<int>(program_.nodes.size()));
    if (g != graph.size()) throw NotesError("the graph has calls the eager forward did not make");
    return out;
  }

  const CallPlan& plan_;
  const Program& program_;
  const ModuleTree& tree_;
  const std::vector<NotedCall>& calls_;
  std::vector<int> match_;  // eager call -> the graph's call; -1: it ran no operator
  std::vector<Side> in_, out_;
  std::vector<std::string> root_inputs_;
  std::vector<Step> events_;  // the eager calls' starts and ends
  std::map<int, size_t> enter_at_, leave_at_;
  std::map<std::string, int> made_by_;  // value -> the node making it
  // Modules some node ran in, a higher-order operator's subgraph's included (such a call, in a
  // torch.cond branch, has no call of its own in the program's plan: not one without operators).
  std::set<std::string> ran_nodes_;
};

}  // namespace

CallPlan with_noted_calls(CallPlan plan, const Program& program, const ModuleTree& tree,
                          const ExportNotes& notes) {
  try {
    return NotedPlan(plan, program, tree, notes).merged();
  } catch (const NotesError& e) {
    log::warn(
        "the calls of modrec.export's notes (", kNotesEntry,
        ") do not match the program's, so calls that run no operator are not shown: ", e.what());
    return plan;
  }
}

}  // namespace modrec::pt2
