#include "instrument/pt2/noted_calls.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "instrument/pt2/call_signature_args.h"
#include "util/log.h"

namespace modrec::pt2 {
namespace {

const std::vector<std::string> kNone;  // a call without nodes has no graph values of its own

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
  bool signature = false;  // the names are the call's signature's (exact, in forward's order)
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

// The graph value each eager tensor is, by identity and version (the notes number a tensor by the
// object it is), where a call's side placed it; a tensor placed as two values is none.
using PlacedValues = std::map<std::pair<int64_t, int64_t>, std::string>;

// The graph's values of a call's side (inputs in the order first used, outputs in the order made)
// matched to its eager tensors (in forward's order): a tensor `placed` by another call's side is
// that value when the side has it; each other tensor's shape must be that of exactly one value
// left. Empty names when they do not match so.
Side side(std::vector<NotedTensor> tensors, const std::vector<std::string>& names,
          const Program& program, const PlacedValues& placed = {}) {
  Side s{std::move(tensors), {}};
  if (s.tensors.size() != names.size()) return s;
  std::vector<std::string> matched(s.tensors.size());
  std::set<std::string> taken;
  for (size_t i = 0; i < s.tensors.size(); ++i) {
    const auto it = placed.find({s.tensors[i].id, s.tensors[i].version});
    if (it != placed.end() && std::count(names.begin(), names.end(), it->second) &&
        taken.insert(it->second).second)
      matched[i] = it->second;
  }
  for (size_t i = 0; i < s.tensors.size(); ++i) {
    if (!matched[i].empty()) continue;
    std::vector<std::string> same;
    for (const std::string& name : names)
      if (!taken.count(name) && same_shape(s.tensors[i].shape, program, name)) same.push_back(name);
    if (same.size() != 1) return s;
    matched[i] = same[0];
    taken.insert(same[0]);
  }
  s.names = std::move(matched);
  return s;
}

// A side of a call from its signature (CallSignature): the graph values export recorded for its
// flat arguments or result, exact where shapes alone cannot tell two tensors apart. nullopt when
// export kept none for the call, or its tensors are not the eager ones (as many, in forward's
// order, of the same shapes).
std::optional<Side> signature_side(const std::vector<NotedTensor>& tensors,
                                   const std::vector<Argument>* told, const Program& program) {
  if (!told) return std::nullopt;
  std::optional<std::vector<std::string>> names = signature_tensors(*told, program);
  if (!names || names->size() != tensors.size()) return std::nullopt;
  Side s{tensors, std::move(*names), true};
  for (size_t i = 0; i < tensors.size(); ++i)
    if (!same_shape(tensors[i].shape, program, s.names[i])) return std::nullopt;
  return s;
}

// Where among a signature's inputs child `child` of `spec` starts, `spec` starting at `leaf`.
size_t first_leaf(const TreeSpec& spec, size_t child, size_t leaf) {
  for (size_t c = 0; c < child; ++c) leaf += leaf_count(spec.children[c]);
  return leaf;
}

// The graph values of noted value `v`'s tensors (appended to `names`, depth-first) from the
// in_spec subtree `spec` for the same argument, whose leaves are `inputs` from `leaf` on: a
// tensor is its leaf's value when of the same shape, a tuple or list's items are its children in
// order, a dict's by key. A value eager gave without a tensor (None, a flag) takes nothing,
// whatever export recorded there. false when the two do not fit.
bool match_argument(const NotedValue& v, const TreeSpec& spec, size_t leaf,
                    const std::vector<Argument>& inputs, const Program& program,
                    std::vector<std::string>& names) {
  using T = TreeSpec::Type;
  const std::vector<NotedTensor> tensors = noted_tensors(v);
  if (tensors.empty()) return true;
  if (std::holds_alternative<NotedTensor>(v.held)) {
    if (spec.type != T::leaf || inputs.at(leaf).kind != Argument::Kind::tensor) return false;
    const std::string& name = inputs[leaf].names.at(0);
    if (!same_shape(tensors[0].shape, program, name)) return false;
    names.push_back(name);
    return true;
  }
  if (const auto* dict = std::get_if<NotedDict>(&v.held)) {
    if (spec.type != T::dict) return false;
    for (size_t i = 0; i < dict->keys.size(); ++i) {
      const auto found = std::find(spec.keys.begin(), spec.keys.end(), dict->keys[i]);
      if (found == spec.keys.end()) return false;
      const auto child = static_cast<size_t>(found - spec.keys.begin());
      if (!match_argument(dict->values[i], spec.children[child], first_leaf(spec, child, leaf),
                          inputs, program, names))
        return false;
    }
    return true;
  }
  const std::vector<NotedValue>& items = *noted_items(v);  // a tuple or list: it has tensors
  if ((spec.type != T::tuple && spec.type != T::list) || items.size() != spec.children.size())
    return false;
  for (size_t i = 0; i < items.size(); ++i)
    if (!match_argument(items[i], spec.children[i], first_leaf(spec, i, leaf), inputs, program,
                        names))
      return false;
  return true;
}

// A call's arguments from its signature's in_spec, argument by argument: those forward was given
// by position by their place in its tuple, the others (and its **kwargs dict's) by name in its
// dict. Exact where eager's arguments and export's differ: transformers builds an attention mask
// only when exporting, where eager passes None, so the signature has a value more than eager
// hooks see. nullopt when an eager tensor has no value of its shape there.
std::optional<Side> named_signature_side(const NotedCall& call, const CallSignature& sig,
                                         const Program& program) {
  if (!sig.in_spec) return std::nullopt;
  const TreeSpec& by_place = sig.in_spec->children[0];
  const TreeSpec& by_name = sig.in_spec->children[1];
  const size_t keyword_leaf = leaf_count(by_place);
  std::vector<std::string> names;
  for (size_t i = 0; i < call.args.size(); ++i) {
    const NotedValue& v = call.args[i];
    bool fits = true;
    if (i < by_place.children.size()) {
      fits = match_argument(v, by_place.children[i], first_leaf(by_place, i, 0), sig.inputs,
                            program, names);
    } else if (std::count(by_name.keys.begin(), by_name.keys.end(), call.arg_names.at(i))) {
      // (as a dict of the one keyword argument, matched to the dict of them all)
      fits = match_argument(NotedValue{NotedDict{{call.arg_names[i]}, {v}}}, by_name, keyword_leaf,
                            sig.inputs, program, names);
    } else if (std::holds_alternative<NotedDict>(v.held)) {  // **kwargs: its keyword arguments
      fits = match_argument(v, by_name, keyword_leaf, sig.inputs, program, names);
    } else {
      fits = noted_tensors(v).empty();  // a default eager filled in, as export did not record
    }
    if (!fits) return std::nullopt;
  }
  return Side{tensors_of(call.args), std::move(names), true};
}

// The structure (as the program's out_spec) of a noted value made of tensors, Nones, tuples,
// lists and dicts; an object (a Hugging Face Cache), of which the graph has no value, is None
// there, which torchinfo sizes as it sizes the object: nothing. nullopt when it holds anything
// else (a constant).
std::optional<TreeSpec> spec_of(const NotedValue& value) {
  using T = TreeSpec::Type;
  if (std::holds_alternative<NotedTensor>(value.held)) return TreeSpec{};
  const auto* constant = std::get_if<NotedConstant>(&value.held);
  if ((constant && std::holds_alternative<std::monostate>(*constant)) ||
      std::holds_alternative<NotedOther>(value.held))
    return TreeSpec{T::none, {}, {}};
  if (constant) return std::nullopt;
  const auto* dict = std::get_if<NotedDict>(&value.held);
  TreeSpec spec{std::holds_alternative<NotedTuple>(value.held) ? T::tuple
                : dict                                         ? T::dict
                                                               : T::list,
                dict ? dict->keys : std::vector<std::string>{},
                {}};
  for (const NotedValue& item : dict ? dict->values : *noted_items(value)) {
    std::optional<TreeSpec> child = spec_of(item);
    if (!child) return std::nullopt;
    spec.children.push_back(std::move(*child));
  }
  return spec;
}

std::optional<CallArgument> argument_spec(const NotedValue& value,
                                          const std::vector<std::string>& names, size_t& next);

// Each of `values` as argument_spec makes it; nullopt when one cannot be carried.
std::optional<std::vector<CallArgument>> argument_specs(const std::vector<NotedValue>& values,
                                                        const std::vector<std::string>& names,
                                                        size_t& next) {
  std::vector<CallArgument> out;
  for (const NotedValue& value : values) {
    std::optional<CallArgument> spec = argument_spec(value, names, next);
    if (!spec) return std::nullopt;
    out.push_back(std::move(*spec));
  }
  return out;
}

// A noted argument with its tensors replaced by the graph values `names` gives them (depth-first,
// from `next`); nullopt where it holds what a call's argument list does not carry here (a list,
// another object). A dict is forward's **kwargs, often empty.
std::optional<CallArgument> argument_spec(const NotedValue& value,
                                          const std::vector<std::string>& names, size_t& next) {
  if (std::holds_alternative<NotedTensor>(value.held))
    return CallArgument{GraphValue{names.at(next++)}};
  if (const auto* constant = std::get_if<NotedConstant>(&value.held))
    return CallArgument{*constant};
  if (const auto* tuple = std::get_if<NotedTuple>(&value.held)) {
    std::optional<std::vector<CallArgument>> items = argument_specs(tuple->items, names, next);
    if (items) return CallArgument{ArgumentTuple{std::move(*items)}};
  }
  if (const auto* dict = std::get_if<NotedDict>(&value.held)) {
    std::optional<std::vector<CallArgument>> values = argument_specs(dict->values, names, next);
    if (values) return CallArgument{ArgumentDict{dict->keys, std::move(*values)}};
  }
  return std::nullopt;
}

// A call's arguments as PlannedCall::in_spec, given the graph values of its tensors in forward's
// order; nullopt when they are tensors only (the graph's inputs say it all) or cannot be carried.
std::optional<std::vector<CallArgument>> arguments_spec(const NotedCall& call,
                                                        const std::vector<std::string>& names) {
  if (std::all_of(call.args.begin(), call.args.end(),
                  [](const NotedValue& v) { return std::holds_alternative<NotedTensor>(v.held); }))
    return std::nullopt;
  size_t next = 0;
  return argument_specs(call.args, names, next);
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
      for (const StackEntry& entry : node.module_stack)
        if (const int m = tree.find(entry.path); m >= 0) ran_nodes_.insert(tree.object_of(m));
    });
    for (const Node& node : program.nodes)
      for (const StackEntry& entry : node.module_stack)
        if (const int m = tree.find(entry.path); m >= 0) ran_top_.insert(tree.object_of(m));
    align();
    order_eager_events();
    for (size_t i = 0; i < program.nodes.size(); ++i)
      for (const Argument& out : program.nodes[i].outputs)
        for (const std::string& name : value_names(out)) made_by_[name] = static_cast<int>(i);
  }

  // The plan with every eager call but those without nodes that cannot be placed (and the calls
  // inside them), which `unplaced` gets with why.
  CallPlan merged(std::map<int, std::string>& unplaced) {
    std::vector<PlannedCall> calls(calls_.size());
    for (size_t e = 0; e < calls_.size(); ++e) try {
        if (!in_subgraph_.count(static_cast<int>(e))) calls[e] = planned(e);
      } catch (const NotesError& why) {
        if (match_[e] >= 0) throw;
        unplaced[static_cast<int>(e)] = why.what();
      }
    std::set<int> left_out = in_subgraph_;
    const std::vector<Step> order = steps(calls, unplaced, left_out);
    std::vector<int> number(calls_.size(), -1);
    CallPlan out;
    out.sources = plan_.sources;
    for (size_t e = 0; e < calls_.size(); ++e)
      if (!left_out.count(static_cast<int>(e))) {
        number[e] = static_cast<int>(out.calls.size());
        out.calls.push_back(std::move(calls[e]));
        if (e > 0) out.calls.back().parent = number[calls_[e].parent];
      }
    out.events_before.assign(program_.nodes.size() + 1, {});
    size_t node = 0;
    for (const Step& step : order)
      if (step.node)
        ++node;
      else
        out.events_before[node].push_back({number[step.index], step.enter});
    return out;
  }

 private:
  // Each eager call's key among the archive's signatures: "c" for module c's first call, "c@1"
  // for its second (as torch.export counts them, by the path each call was made through: the
  // graph's call's). A call without nodes of a module object at several paths has none: which
  // path eager forward took is not told.
  void number_calls() {
    std::map<std::string, int> seen;
    for (size_t e = 0; e < calls_.size(); ++e) {
      const int m = match_[e] >= 0 ? plan_.calls[match_[e]].module : tree_.find(calls_[e].path);
      const std::string& path = tree_.modules[m].path;
      const bool told = match_[e] >= 0 || tree_.hooked_path(m) == tree_.object_of(m);
      const int n = seen[path]++;
      keys_.push_back(!told ? "" : n == 0 ? path : path + "@" + std::to_string(n));
    }
  }

  // Call e's arguments (`inputs`) or result as its signature tells them, else matched to
  // `graph_names` (the graph's call's values; none for a call without nodes) by what other calls
  // `placed` and by shape (side).
  Side side_of(size_t e, bool inputs, const std::vector<std::string>& graph_names,
               const PlacedValues& placed = {}) const {
    std::vector<NotedTensor> tensors =
        inputs ? tensors_of(calls_[e].args) : noted_tensors(calls_[e].output);
    if (const CallSignature* sig = signature(e)) {
      if (inputs)
        if (auto told = named_signature_side(calls_[e], *sig, program_)) return *told;
      if (auto told = signature_side(tensors, inputs ? &sig->inputs : &sig->outputs, program_))
        return *told;
    }
    return side(std::move(tensors), graph_names, program_, placed);
  }

  // The signature the archive keeps of call e; nullptr when none.
  const CallSignature* signature(size_t e) const {
    if (e == 0) return program_.root_signature ? &*program_.root_signature : nullptr;
    const auto sig =
        keys_[e].empty() ? program_.call_signatures.end() : program_.call_signatures.find(keys_[e]);
    return sig == program_.call_signatures.end() ? nullptr : &sig->second;
  }

  // How many of call e's arguments were given by position, once they are eager forward's (its
  // in_spec, or its tensors in forward's order): the notes' count, else its signature's.
  std::optional<size_t> positional(size_t e, const PlannedCall& call) const {
    const NotedCall& noted = calls_[e];
    if (noted.positional) {
      const auto first = noted.args.begin();
      const auto end =
          first + static_cast<ptrdiff_t>(std::min(*noted.positional, noted.args.size()));
      if (call.in_spec) return end - first;
      return tensors_of({first, end}).size();
    }
    if (in_[e].signature) return positional_arguments(*signature(e), call.in_spec);
    return std::nullopt;
  }

  // The graph's calls are the eager calls that ran an operator, in the same order and nesting.
  void align() {
    match_.assign(calls_.size(), -1);
    match_[0] = 0;
    size_t p = 1;
    for (size_t e = 1; e < calls_.size(); ++e) {
      // eager hooks name a module object by its first path, the graph a call by the path it
      // was made through (`self.b(x)` of `self.b = self.a`)
      const int m = tree_.find(calls_[e].path);
      if (m <= 0) throw NotesError("a call of " + calls_[e].path + ", a module the program lacks");
      const int object = tree_.object_of(m);
      if (in_subgraph_.count(calls_[e].parent)) {
        in_subgraph_.insert(static_cast<int>(e));
      } else if (p < plan_.calls.size() && tree_.object_of(plan_.calls[p].module) == object) {
        match_[e] = static_cast<int>(p++);
      } else if (ran_nodes_.count(object) && !ran_top_.count(object)) {
        // made by a higher-order operator's subgraph (a strict export's torch.cond branch, a
        // module inside a no_grad block): planned from its nodes' stacks when the subgraph runs
        in_subgraph_.insert(static_cast<int>(e));
      } else if (ran_nodes_.count(object)) {
        throw NotesError("the call of " + calls_[e].path +
                         " runs operators the program does not show as its own call");
      }
    }
    if (p != plan_.calls.size())
      throw NotesError("the graph's call of " + tree_.modules[plan_.calls[p].module].path +
                       " is not among the eager calls");
    for (size_t e = 1; e < calls_.size(); ++e)
      if (match_[e] > 0 && match_[calls_[e].parent] != plan_.calls[match_[e]].parent)
        throw NotesError("the call of " + calls_[e].path + " is inside another call in the graph");
    number_calls();
    in_.resize(calls_.size());
    out_.resize(calls_.size());
    // Once by signature and shape; then the sides that did not match again, with the tensors
    // the others placed (a call whose signature export could not keep, given two tensors of one
    // shape: diffusers' AdaLayerNormZero, given timestep and class_labels, [1] both).
    PlacedValues placed;
    for (int pass = 0; pass < 2; ++pass) {
      for (size_t e = 0; e < calls_.size(); ++e) {
        const bool graph = match_[e] >= 0;
        const PlannedCall* call = graph ? &plan_.calls[match_[e]] : nullptr;
        if (pass == 0 || !matched(in_[e]))
          in_[e] = side_of(e, true, e == 0 ? root_inputs_ : graph ? call->inputs : kNone, placed);
        if (pass == 0 || !matched(out_[e]))
          out_[e] = side_of(e, false, graph ? call->outputs : kNone, placed);
      }
      placed = placed_values();
    }
  }

  static bool matched(const Side& s) { return s.names.size() == s.tensors.size(); }

  // The graph value of each tensor the sides matched; none for one matched to two values.
  PlacedValues placed_values() const {
    PlacedValues placed;
    std::set<std::pair<int64_t, int64_t>> twice;
    for (const auto* sides : {&in_, &out_})
      for (const Side& s : *sides)
        for (size_t i = 0; matched(s) && i < s.tensors.size(); ++i) {
          const std::pair<int64_t, int64_t> key{s.tensors[i].id, s.tensors[i].version};
          if (!placed.emplace(key, s.names[i]).second && placed[key] != s.names[i])
            twice.insert(key);
        }
    for (const auto& key : twice) placed.erase(key);
    return placed;
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
    const auto told = [&](const Step& ev) {
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
    // The root's outputs are the program's, in its result's order: its structure is the notes'
    // when it has them all (a ModelOutput, a tuple holding None).
    const std::optional<TreeSpec> spec =
        out_[e].names.empty() ? std::nullopt : spec_of(calls_[e].output);
    if (spec && (e > 0 || leaf_count(*spec) == call.outputs.size())) {
      call.out_spec = spec;
      if (e > 0) call.outputs = out_[e].names;
    }
    // Unmatched, the graph's values stand, told only when none came by position. (A call given
    // no tensor, as timm's positional encoding pos_embd(B, H, W), matches with none.)
    if (in_[e].names.size() != in_[e].tensors.size()) {
      if (positional(e, call) == 0) call.positional = 0;
      return call;
    }
    // Eager forward's arguments, in its order: the signature's, an unused one too (a rotary
    // embedding's hidden states), where the graph's call has only the values its nodes read.
    call.in_spec = arguments_spec(calls_[e], in_[e].names);
    call.inputs = in_[e].names;
    call.positional = positional(e, call);
    return call;
  }

  PlannedCall nodeless_call(size_t e) const {
    PlannedCall call{
        tree_.find(calls_[e].path), calls_[e].parent, {}, {}, spec_of(calls_[e].output)};
    if (in_[e].signature && out_[e].signature) {
      call.inputs = in_[e].names;
      call.outputs = out_[e].names;
      call.in_spec = arguments_spec(calls_[e], call.inputs);
      call.positional = positional(e, call);
      return call;
    }
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
    call.positional = positional(e, call);
    return call;
  }

  // The graph's steps with the eager calls that have no node among them: each right after the
  // step before it, once the nodes making the values it takes and returns have run. Those
  // `unplaced` (a value made after the calls around it adds to them) are left out, with the
  // calls inside them: `left_out` gets them all.
  std::vector<Step> steps(const std::vector<PlannedCall>& calls,
                          std::map<int, std::string>& unplaced, std::set<int>& left_out) const {
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
      if (ev.enter && (unplaced.count(ev.index) || left_out.count(calls_[ev.index].parent)))
        left_out.insert(ev.index);
      if (left_out.count(ev.index)) continue;
      if (ev.enter && match_[calls_[ev.index].parent] >= 0) {
        const int last = last_maker(calls[ev.index]);
        run_nodes_to(last);
        if (nodes_run <= last) {
          unplaced[ev.index] = "the call of " + calls_[ev.index].path +
                               " takes a value made after the calls around it";
          left_out.insert(ev.index);
          continue;
        }
      }
      out.push_back(ev);
    }
    run_nodes_to(static_cast<int>(program_.nodes.size()));
    if (g != graph.size()) throw NotesError("the graph has calls the eager forward did not make");
    return out;
  }

  // The last node making a value `call` takes or returns; -1 when none does (graph inputs).
  int last_maker(const PlannedCall& call) const {
    int last = -1;
    for (const auto* names : {&call.inputs, &call.outputs})
      for (const std::string& name : *names)
        if (auto it = made_by_.find(name); it != made_by_.end()) last = std::max(last, it->second);
    return last;
  }

  const CallPlan& plan_;
  const Program& program_;
  const ModuleTree& tree_;
  const std::vector<NotedCall>& calls_;
  std::vector<std::string> keys_;  // eager call -> its key among the archive's signatures
  std::vector<int> match_;         // eager call -> the graph's call; -1: it ran no operator
  std::vector<Side> in_, out_;
  std::vector<std::string> root_inputs_;
  std::vector<Step> events_;  // the eager calls' starts and ends
  std::map<int, size_t> enter_at_, leave_at_;
  std::map<std::string, int> made_by_;  // value -> the node making it
  // Module objects some node ran in, a higher-order operator's subgraph's included (such a call,
  // in a torch.cond branch, has no call of its own in the program's plan: not one without
  // operators).
  std::set<int> ran_nodes_;
  std::set<int> ran_top_;      // module objects some node of the top graph ran in
  std::set<int> in_subgraph_;  // eager calls a subgraph makes (and the calls inside them)
};

void warn_unplaced(const std::map<int, std::string>& unplaced, const ExportNotes& notes) {
  std::vector<std::string> paths;
  for (const auto& [call, why] : unplaced) paths.push_back(notes.calls[call].path);
  log::warn(paths.size(),
            " call(s) of modrec.export's notes that run no operator cannot be placed "
            "in the program's graph, and are not shown (",
            log::listed(paths), "): ", unplaced.begin()->second);
}

}  // namespace

CallPlan with_noted_calls(CallPlan plan, const Program& program, const ModuleTree& tree,
                          const ExportNotes& notes) {
  try {
    std::map<int, std::string> unplaced;
    CallPlan out = NotedPlan(plan, program, tree, notes).merged(unplaced);
    if (!unplaced.empty()) warn_unplaced(unplaced, notes);
    return out;
  } catch (const NotesError& e) {
    log::warn(
        "the calls of modrec.export's notes (", kNotesEntry,
        ") do not match the program's, so calls that run no operator are not shown: ", e.what());
    return plan;
  }
}

}  // namespace modrec::pt2
