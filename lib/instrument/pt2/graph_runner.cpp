#include "instrument/pt2/graph_runner.h"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "values/ivalue_walk.h"
#include "instrument/pt2/call_plan.h"
#include "instrument/pt2/dispatcher_ops.h"
#include "instrument/pt2/higher_order_ops.h"
#include "instrument/pt2/input_sizes.h"
#include "instrument/pt2/node_args.h"
#include "instrument/pt2/pytree.h"
#include "instrument/pt2/symbolic_ops.h"
#include "instrument/pt2/value_lifetimes.h"
#include "load/operator_libraries.h"
#include "ops/quantized/quantized_ops.h"
#include "util/error.h"

namespace modrec {

using pt2::InputSpec;
using pt2::Node;

// What runs a node: a dispatcher operator, a higher-order operator with its subgraphs, or a
// Python operator on sizes.
struct Step {
  std::optional<DispatcherOp> op;
  std::optional<pt2::HigherOrderOp> higher_order;
  std::vector<GraphRunner::Compiled> graphs;  // as Node::graphs
  pt2::SymbolicOp symbolic = nullptr;
};

struct GraphRunner::Compiled {
  const std::vector<Node>* nodes = nullptr;
  const pt2::Graph* graph = nullptr;  // a subgraph's inputs and outputs; null for the program
  std::vector<Step> steps;            // per node
  pt2::CallPlan plan;
  std::vector<std::vector<std::string>> frees;  // per node: the values let go after it
};

namespace {

using Compiled = GraphRunner::Compiled;

Error cannot_run(const Node& node, const std::string& why, const std::string& path) {
  return Error(Exit::bad_input, "cannot run node " + node.name + " (" + node.target + "): " + why,
               path, "export the model without that operator, or give its TorchScript file");
}

// The inputs of `graph` that `node` binds to attributes: the values after its last graph argument
// are the subgraph's inputs, in order.
std::set<std::string> subgraph_attributes(const Node& node, const pt2::Graph& graph,
                                          const std::set<std::string>& attributes) {
  size_t first = 0;
  for (size_t i = 0; i < node.inputs.size(); ++i)
    if (node.inputs[i].value.kind == pt2::Argument::Kind::graph) first = i + 1;
  std::vector<std::string> names;
  for (size_t i = first; i < node.inputs.size(); ++i)
    for (const std::string& name : pt2::value_names(node.inputs[i].value)) names.push_back(name);
  std::set<std::string> out;
  for (size_t i = 0; i < names.size() && i < graph.inputs.size(); ++i)
    if (attributes.count(names[i])) out.insert(graph.inputs[i]);
  return out;
}

Error malformed_node(const Node& node, const std::string& what, const std::string& path) {
  return Error(Exit::bad_input,
               "export archive is malformed: node " + node.name + " (" + node.target + "): " + what,
               path, "save the program again with torch.export.save");
}

// `node`'s arguments held to its operator's schema, once, before anything runs: one of another
// type (a string where an int goes) or one missing is the archive's fault, not the model's.
void check_arguments(const Node& node, const Step& step, const std::string& path) {
  if (step.higher_order)
    if (const std::string why = pt2::higher_order_mismatch(*step.higher_order, node); !why.empty())
      throw malformed_node(node, why, path);
  if (!step.op) return;
  for (const c10::Argument& param : step.op->schema().arguments()) {
    const auto given = std::ranges::find(node.inputs, param.name(), &pt2::NodeArg::name);
    if (given == node.inputs.end()) {
      if (!param.default_value())
        throw malformed_node(node, "its input " + param.name() + " is missing", path);
    } else if (const std::string why = pt2::argument_mismatch(given->value, param); !why.empty()) {
      throw malformed_node(node, "its input " + param.name() + " is " + why, path);
    }
  }
}

void compile_steps(Compiled& compiled, const std::set<std::string>& attributes,
                   const ModuleTree& tree, const std::string& path) {
  for (const Node& node : *compiled.nodes) {
    Step step{DispatcherOp::find(node.target),
              pt2::higher_order_op(node.target),
              {},
              pt2::symbolic_op(node.target)};
    check_arguments(node, step, path);
    for (const pt2::Graph& graph : node.graphs) {
      const std::set<std::string> inner = subgraph_attributes(node, graph, attributes);
      Compiled sub{&graph.nodes,
                   &graph,
                   {},
                   pt2::plan_subgraph(graph, inner, pt2::running_stack(node), tree),
                   {}};
      sub.frees = pt2::last_uses(graph.nodes, sub.plan, pt2::names_of(graph.outputs));
      compile_steps(sub, inner, tree, path);
      step.graphs.push_back(std::move(sub));
    }
    compiled.steps.push_back(std::move(step));
  }
}

// Where check_steps reports from: the archive's path, and what modrec.export's notes tell of the
// operators Python defines.
struct Unrunnable {
  const std::string& path;
  const std::map<std::string, std::string>* python_operators;  // null without notes
};

// The Python package that defines `qualified` (myops.scale_add.default): the notes' word, else
// the package known to define its namespace in Python; "" for neither.
std::string python_package(const std::string& qualified,
                           const std::map<std::string, std::string>* noted) {
  const size_t dot = qualified.find('.');
  const std::string ns = qualified.substr(0, dot);
  const std::string name = qualified.substr(dot + 1, qualified.find('.', dot + 1) - dot - 1);
  if (noted)
    if (const auto it = noted->find(ns + "::" + name); it != noted->end()) return it->second;
  return pt2::python_package_of(ns);
}

// A node whose operator `op` (its target, or the one auto_functionalized_v2 runs) LibTorch lacks:
// one a Python package defines (torch.library) runs only in Python; an operator of a namespace
// no loaded library registers wants that library (a team's, loaded with --load-library, or
// torchvision's).
Error missing_operator(const Node& node, const std::string& op, const Unrunnable& where) {
  const std::string& path = where.path;
  const std::string qualified = op.substr(op.find("ops.") + 4);  // myops.scale_add.default
  const std::string ns = qualified.substr(0, qualified.find('.'));
  if (const std::string package = python_package(qualified, where.python_operators);
      !package.empty())
    return Error(Exit::bad_input,
                 "cannot run node " + node.name + " (" + node.target + "): the operator " + op +
                     " is defined in Python by " + package +
                     " (torch.library), so it runs only in Python",
                 path,
                 "export the model with an implementation of that layer made of ATen operators "
                 "(transformers: attn_implementation or experts_implementation \"eager\")");
  if (namespace_registered(ns)) return cannot_run(node, "LibTorch has no operator " + op, path);
  return Error(Exit::bad_input,
               "cannot run node " + node.name + " (" + node.target + "): the operator " + op +
                   " is of namespace " + ns +
                   ", which no loaded library registers (one a Python package defines with "
                   "torch.library runs only in Python)",
               path, namespace_hint(ns));
}

// The mutating operator an auto_functionalized_v2 node runs (its first argument).
std::string functionalized_operator(const Node& node) {
  if (node.inputs.empty() || node.inputs[0].value.kind != pt2::Argument::Kind::op) return "";
  return node.inputs[0].value.strings.at(0);
}

// The first node of `compiled` (its subgraphs' included) that cannot run.
void check_steps(const Compiled& compiled, const Unrunnable& where) {
  const std::string& path = where.path;
  for (size_t i = 0; i < compiled.steps.size(); ++i) {
    const Step& step = compiled.steps[i];
    const Node& node = (*compiled.nodes)[i];
    if (!step.op && !step.higher_order && !step.symbolic) {
      if (node.target.starts_with("torch.ops.higher_order."))
        throw cannot_run(node, "modrec does not run this higher-order operator", path);
      if (!node.target.starts_with("torch.ops."))
        throw cannot_run(node, "modrec does not run this Python function", path);
      throw missing_operator(node, node.target, where);
    }
    if (step.higher_order == pt2::HigherOrderOp::auto_functionalized) {
      const std::string op = functionalized_operator(node);
      if (!op.empty() && !DispatcherOp::find(op)) throw missing_operator(node, op, where);
    }
    for (const Compiled& graph : step.graphs) check_steps(graph, where);
  }
}

// What one forward shares across the graphs it runs (the subgraphs of higher-order operators).
struct ForwardState {
  CallHooks& hooks;
  InstrumentOptions options;
  const std::optional<pt2::TreeSpec>& out_spec;
  const std::string& path;
  // Where the program runs: every device argument of a node becomes this one (run_device).
  std::optional<c10::Device> device;
  int next_call = 0;  // the number the next call to start gets
};

// One run of one graph: its values by name, and the module calls open while it runs.
class GraphRun {
 public:
  GraphRun(const Compiled& graph, ForwardState& forward)
      : graph_(graph), forward_(forward), ids_(graph.plan.calls.size(), -1) {}

  // A value an open call sees routed (a call that runs no operator, from modrec.export's notes,
  // returns its argument under the same name) is rebound for that call; others for all.
  void bind(const std::string& name, c10::IValue value) {
    for (auto it = routed_.rbegin(); it != routed_.rend(); ++it)
      if (auto found = it->find(name); found != it->end()) {
        found->second = std::move(value);
        return;
      }
    values_[name] = std::move(value);
  }

  // The value `name` as the innermost open call sees it (routed inputs are the call's own).
  c10::IValue value(const std::string& name) const {
    if (const c10::IValue* own = routed(name)) return *own;
    return values_.at(name);
  }

  // The innermost open call's routed value `name`; nullptr when no open call routes it.
  const c10::IValue* routed(const std::string& name) const {
    for (auto it = routed_.rbegin(); it != routed_.rend(); ++it)
      if (auto found = it->find(name); found != it->end()) return &found->second;
    return nullptr;
  }

  // The root's arguments are the program's inputs, or with modrec.export's notes forward's
  // (attn_mask=None, is_causal=False among them), those given by keyword told.
  void enter_root(const std::vector<c10::IValue>& inputs) {
    ids_[0] = forward_.next_call++;
    const pt2::PlannedCall& root = graph_.plan.calls[0];
    std::vector<std::string> names;
    const std::vector<c10::IValue> args = root.in_spec ? arguments(root, names) : inputs;
    forward_.hooks.enter(ids_[0], 0, args);
    report(ids_[0], {.positional = positional(root, args)});
    routed_.emplace_back();
  }

  // The graph's nodes, with the calls that start and end among them.
  void run_nodes() {
    const size_t n = graph_.steps.size();
    for (size_t i = 0; i <= n; ++i) {
      for (const pt2::CallEvent& event : graph_.plan.events_before[i])
        event.enter ? enter(event.call) : (void)leave(event.call);
      if (i == n) break;
      const Node& node = (*graph_.nodes)[i];
      try {
        run_node(node, graph_.steps[i], graph_.plan.sources[i]);
        for (const std::string& name : graph_.frees[i]) values_.erase(name);
      } catch (const Error&) {
        throw;  // a subgraph's node, named already
      } catch (const pt2::UnsupportedArgument& e) {
        throw cannot_run(node, e.what(), forward_.path);
      } catch (const c10::Error& e) {
        // The model raised (exit 4, the call it was in named by the pass): the node too.
        throw std::runtime_error("node " + node.name + " (" + node.target +
                                 ") raised: " + first_line(e.what_without_backtrace()));
      }
    }
  }

  // A subgraph's outputs, in order.
  std::vector<c10::IValue> outputs() const {
    std::vector<c10::IValue> out;
    const pt2::ValueLookup lookup = [this](const std::string& name) { return value(name); };
    for (const pt2::Argument& o : graph_.graph->outputs)
      out.push_back(pt2::argument_value(o, lookup));
    return out;
  }

  // As TorchScript's instrumentation does: enter sees the arguments, then (route_tensor_args)
  // each tensor argument passes through route, and the call's nodes see what it returns. Between
  // the two, what eager hooks would see otherwise (CallCaveats): the gradients the graph cannot
  // tell, the signature the archive lacks, the arguments given by position.
  void enter(int call) {
    const pt2::PlannedCall& planned = graph_.plan.calls[call];
    std::vector<std::string> names;  // per argument: the graph value it is, if a tensor
    const std::vector<c10::IValue> args = arguments(planned, names);
    ids_[call] = forward_.next_call++;
    forward_.hooks.enter(ids_[call], planned.module, args);
    report(ids_[call], {planned.untold_inputs, planned.untold_outputs, positional(planned, args),
                        !planned.positional, !planned.out_spec});
    std::unordered_map<std::string, c10::IValue> routed;
    for (size_t i = 0; forward_.options.route_tensor_args && i < args.size(); ++i)
      if (args[i].isTensor())
        routed[names[i]] = forward_.hooks.route(ids_[call], i, args[i].toTensor());
    routed_.push_back(std::move(routed));
  }

  // The call's outputs (pack) through leave; the graph continues with what leave returns.
  c10::IValue leave(int call) {
    const std::vector<std::string>& names = graph_.plan.calls[call].outputs;
    std::vector<c10::IValue> outs;
    for (const std::string& name : names) outs.push_back(value(name));
    routed_.pop_back();
    const c10::IValue out =
        forward_.hooks.leave(ids_[call], graph_.plan.calls[call].module, pack(call, outs));
    unpack(names, out, graph_.plan.calls[call].out_spec.has_value());
    return out;
  }

 private:
  void run_node(const Node& node, const Step& step,
                const std::map<std::string, std::string>& sources) {
    // A value read under another name (CallPlan::sources) is that one, but where an open call
    // routed it under its own name: a call given the result of a no-op aten.to made before it
    // (transformers' MoE experts' top_k_weights) has its argument, and its gradient, from there.
    const pt2::ValueLookup lookup = [&](const std::string& name) {
      auto from = sources.find(name);
      return value(from == sources.end() || routed(name) ? name : from->second);
    };
    std::vector<c10::IValue> results;
    if (step.op) {
      std::vector<c10::IValue> args;
      for (const c10::Argument& param : step.op->schema().arguments()) {
        args.push_back(argument(node, param, lookup));
        if (args.back().isDevice() && forward_.device) args.back() = *forward_.device;
      }
      results = step.op->call(std::move(args));
    } else {
      std::vector<std::string> names;
      std::vector<c10::IValue> args;
      for (const pt2::NodeArg& arg : node.inputs) {
        names.push_back(arg.name);
        args.push_back(pt2::argument_value(arg.value, lookup));
      }
      if (step.symbolic) {
        results.push_back(step.symbolic(args));
      } else {
        results = pt2::run_higher_order(
            *step.higher_order, names, args, [&](int graph, std::vector<c10::IValue> inputs) {
              return run_subgraph(step.graphs.at(static_cast<size_t>(graph)), std::move(inputs));
            });
      }
    }
    for (size_t i = 0; i < node.outputs.size() && i < results.size(); ++i)
      unpack(pt2::value_names(node.outputs[i]), results[i]);
  }

  std::vector<c10::IValue> run_subgraph(const Compiled& graph, std::vector<c10::IValue> inputs) {
    if (inputs.size() != graph.graph->inputs.size())
      throw pt2::UnsupportedArgument("its subgraph takes " +
                                     std::to_string(graph.graph->inputs.size()) + " inputs, " +
                                     std::to_string(inputs.size()) + " given");
    GraphRun sub(graph, forward_);
    for (size_t i = 0; i < inputs.size(); ++i) sub.bind(graph.graph->inputs[i], inputs[i]);
    sub.routed_.emplace_back();  // call 0: the calls open outside, which route nothing here
    sub.run_nodes();
    return sub.outputs();
  }

  // A call's arguments: its inputs, or its in_spec's values; `names` gets the graph value each
  // is, if a tensor.
  std::vector<c10::IValue> arguments(const pt2::PlannedCall& planned,
                                     std::vector<std::string>& names) const {
    std::vector<c10::IValue> args;
    if (!planned.in_spec) {
      names = planned.inputs;
      for (const std::string& name : names) args.push_back(value(name));
      return args;
    }
    for (const pt2::CallArgument& arg : *planned.in_spec) {
      args.push_back(noted_argument(arg));
      const auto* graph_value = std::get_if<pt2::GraphValue>(&arg.held);
      names.push_back(graph_value ? graph_value->name : "");
    }
    return args;
  }

  // An argument as eager forward got it (PlannedCall::in_spec): an LSTM's hx=None or a tuple of
  // states included, its tensors the graph's values.
  c10::IValue noted_argument(const pt2::CallArgument& arg) const {
    if (const auto* graph_value = std::get_if<pt2::GraphValue>(&arg.held))
      return value(graph_value->name);
    if (const auto* tuple = std::get_if<pt2::ArgumentTuple>(&arg.held)) {
      std::vector<c10::IValue> items;
      for (const pt2::CallArgument& item : tuple->items) items.push_back(noted_argument(item));
      return c10::ivalue::Tuple::create(std::move(items));
    }
    if (const auto* dict = std::get_if<pt2::ArgumentDict>(&arg.held)) {
      c10::impl::GenericDict out(c10::StringType::get(), c10::AnyType::get());
      for (size_t i = 0; i < dict->keys.size(); ++i)
        out.insert(dict->keys[i], noted_argument(dict->values[i]));
      return out;
    }
    return std::visit(
        [](const auto& c) -> c10::IValue {
          if constexpr (std::is_same_v<std::decay_t<decltype(c)>, std::monostate>)
            return c10::IValue();  // None
          else
            return c;
        },
        std::get<pt2::NotedConstant>(arg.held));
  }

  void report(int id, const CallCaveats& caveats) {
    if (caveats.any()) forward_.hooks.caveats(id, caveats);
  }

  // The arguments given by position, where some were given by keyword (torchinfo's Input Shape
  // is the first positional tensor's: "--" without one).
  static std::optional<std::vector<c10::IValue>> positional(const pt2::PlannedCall& planned,
                                                            const std::vector<c10::IValue>& args) {
    if (!planned.positional || *planned.positional >= args.size()) return std::nullopt;
    return std::vector<c10::IValue>(args.begin(),
                                    args.begin() + static_cast<ptrdiff_t>(*planned.positional));
  }

  // compile_steps checked that each argument is there (or has a default) and fits.
  static c10::IValue argument(const Node& node, const c10::Argument& param,
                              const pt2::ValueLookup& lookup) {
    for (const pt2::NodeArg& arg : node.inputs)
      if (arg.name == param.name()) return pt2::argument_value(arg.value, param, lookup);
    return *param.default_value();
  }

  // The root's result has forward's structure (its out_spec, or the notes'); a submodule call's
  // is unknown to the archive without modrec.export's notes: its value, or a tuple of several.
  c10::IValue pack(int call, const std::vector<c10::IValue>& values) const {
    if (values.empty()) return c10::IValue();
    const bool root = call == 0 && graph_.graph == nullptr;
    const std::optional<pt2::TreeSpec>& noted = graph_.plan.calls[call].out_spec;
    const std::optional<pt2::TreeSpec>& spec = root && !noted ? forward_.out_spec : noted;
    return pt2::unflatten(spec ? &*spec : nullptr, values);
  }

  // Binds `names` to `out`: the value itself for one name, else the values inside it in order.
  // A result `structured` by modrec.export's notes is a container even around one value (a
  // Hugging Face model's output dict): its values are the names'.
  void unpack(const std::vector<std::string>& names, const c10::IValue& out,
              bool structured = false) {
    if (names.size() == 1 && !out.isList() && !structured) return bind(names[0], out);
    std::vector<c10::IValue> values;
    flatten_values(out, values);
    // None names no graph value: pytree has no leaf for it (T5's (output, bias, None)).
    std::erase_if(values, [](const c10::IValue& v) { return v.isNone(); });
    for (size_t i = 0; i < names.size() && i < values.size(); ++i) bind(names[i], values[i]);
  }

  const Compiled& graph_;
  ForwardState& forward_;
  std::vector<int> ids_;  // per planned call: its number in the pass, once it started
  std::unordered_map<std::string, c10::IValue> values_;
  std::vector<std::unordered_map<std::string, c10::IValue>> routed_;  // per open call
};

void bind_inputs(const pt2::ExportedArchive& archive, std::vector<c10::IValue>& inputs,
                 GraphRun& run) {
  size_t next = 0;
  const pt2::ValueLookup none = [](const std::string& name) -> c10::IValue {
    throw pt2::UnsupportedArgument("a constant input refers to the value " + name);
  };
  for (const InputSpec& in : archive.program.inputs) {
    if (in.kind == InputSpec::Kind::user_input)
      run.bind(in.value, inputs[next++]);
    else if (in.kind == InputSpec::Kind::constant_input)
      run.bind(in.value, pt2::argument_value(in.constant, none));
    else if (!in.target.empty())
      run.bind(in.value, archive.state.at(in.target).value);
  }
}

// buffer_mutation outputs (BatchNorm's running statistics in train mode) become the buffers.
void write_back_buffers(pt2::ExportedArchive& archive, const GraphRun& run) {
  for (const pt2::OutputSpec& out : archive.program.outputs)
    if (!out.buffer.empty())
      archive.state.at(out.buffer).value =
          run.value(pt2::value_names(out.value).at(0)).toTensor().detach();
}

// torch.export writes the device a tensor is made on or moved to as a constant (arange's, a
// rotary embedding's .to(x.device): "cpu" when exported on the CPU). As PyTorch's
// move_to_device_pass rewrites them for a program moved elsewhere, the pass runs them on the
// device of the program's weights (the meta device for summary's pass on shapes, a GPU with
// --device cuda), or of its first tensor input when it has no weights.
std::optional<c10::Device> run_device(const pt2::ExportedArchive& archive,
                                      const std::vector<c10::IValue>& inputs) {
  for (const auto& [fqn, stored] : archive.state)
    if (stored.value.defined()) return stored.value.device();
  for (const c10::IValue& input : inputs)
    if (input.isTensor()) return input.toTensor().device();
  return std::nullopt;
}

size_t user_inputs(const pt2::Program& program) {
  size_t n = 0;
  for (const InputSpec& in : program.inputs) n += in.kind == InputSpec::Kind::user_input;
  return n;
}

}  // namespace

GraphRunner::GraphRunner(const pt2::ExportedArchive& archive, const ModuleTree& tree,
                         InstrumentOptions options)
    : options_(options) {
  const pt2::Program& program = archive.program;
  std::set<std::string> attributes;
  for (const InputSpec& in : program.inputs)
    if (in.kind != InputSpec::Kind::user_input) attributes.insert(in.value);
  auto main = std::make_unique<Compiled>(
      Compiled{&program.nodes,
               nullptr,
               {},
               pt2::plan_calls(program, tree, archive.notes ? &*archive.notes : nullptr),
               {}});
  // The root's result and the program's outputs (buffer mutations among them) are read after
  // the last node.
  std::set<std::string> kept(main->plan.calls[0].outputs.begin(),
                             main->plan.calls[0].outputs.end());
  for (const pt2::OutputSpec& out : program.outputs)
    for (const std::string& name : pt2::value_names(out.value)) kept.insert(name);
  main->frees = pt2::last_uses(program.nodes, main->plan, kept);
  compile_steps(*main, attributes, tree, archive.path);
  main_ = std::move(main);
}

GraphRunner::~GraphRunner() = default;

void GraphRunner::check_runnable(const pt2::ExportedArchive& archive,
                                 const std::vector<c10::IValue>& inputs) const {
  const pt2::Program& program = archive.program;
  check_steps(*main_, {archive.path, archive.notes ? &archive.notes->python_operators : nullptr});
  if (inputs.size() != user_inputs(program))
    throw Error(Exit::model_failed,
                "the program takes " + std::to_string(user_inputs(program)) + " tensor inputs, " +
                    std::to_string(inputs.size()) + " given",
                archive.path, "give one --input per tensor argument of the exported forward");
  pt2::check_input_sizes(program, inputs, archive.path);
}

c10::IValue GraphRunner::run(std::vector<c10::IValue> inputs, CallHooks& hooks,
                             pt2::ExportedArchive& archive) const {
  check_runnable(archive, inputs);
  ForwardState forward{hooks, options_, archive.program.out_spec, archive.path,
                       run_device(archive, inputs)};
  GraphRun run(*main_, forward);
  bind_inputs(archive, inputs, run);
  run.enter_root(inputs);
  run.run_nodes();
  write_back_buffers(archive, run);
  return run.leave(0);
}

}  // namespace modrec
