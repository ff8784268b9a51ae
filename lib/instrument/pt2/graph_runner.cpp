#include "instrument/pt2/graph_runner.h"

#include <unordered_map>

#include "instrument/pt2/node_args.h"
#include "instrument/pt2/pytree.h"
#include "util/error.h"

namespace modrec {
namespace {

using pt2::InputSpec;
using pt2::Node;

Error cannot_run(const Node& node, const std::string& why, const std::string& path) {
  return Error(Exit::bad_input, "cannot run node " + node.name + " (" + node.target + "): " + why,
               path, "export the model without that operator, or give its TorchScript file");
}

// One pass: the graph's values by name, and the module calls open while it runs.
class GraphRun {
 public:
  GraphRun(const pt2::CallPlan& plan, const nlohmann::json& out_spec, CallHooks& hooks,
           InstrumentOptions options)
      : plan_(plan), out_spec_(out_spec), hooks_(hooks), options_(options) {}

  void bind(const std::string& name, c10::IValue value) { values_[name] = std::move(value); }

  // The value `name` as the innermost open call sees it (routed inputs are the call's own).
  c10::IValue value(const std::string& name) const {
    for (auto it = routed_.rbegin(); it != routed_.rend(); ++it)
      if (auto found = it->find(name); found != it->end()) return found->second;
    return values_.at(name);
  }

  void enter_root(const std::vector<c10::IValue>& inputs) {
    hooks_.enter(0, 0, inputs);
    routed_.emplace_back();
  }

  // As TorchScript's instrumentation does: enter sees the arguments, then (route_tensor_args)
  // each tensor argument passes through route, and the call's nodes see what it returns.
  void enter(int call) {
    const pt2::PlannedCall& planned = plan_.calls[call];
    std::vector<c10::IValue> args;
    for (const std::string& name : planned.inputs) args.push_back(value(name));
    hooks_.enter(call, planned.module, args);
    std::unordered_map<std::string, c10::IValue> routed;
    for (size_t i = 0; options_.route_tensor_args && i < args.size(); ++i)
      if (args[i].isTensor()) routed[planned.inputs[i]] = hooks_.route(call, i, args[i].toTensor());
    routed_.push_back(std::move(routed));
  }

  // The call's outputs (pack) through leave; the graph continues with what leave returns.
  c10::IValue leave(int call) {
    const std::vector<std::string>& names = plan_.calls[call].outputs;
    std::vector<c10::IValue> outs;
    for (const std::string& name : names) outs.push_back(value(name));
    routed_.pop_back();
    const c10::IValue out = hooks_.leave(call, plan_.calls[call].module, pack(call, outs));
    unpack(names, out);
    return out;
  }

  void run_node(const Node& node, const DispatcherOp& op) {
    const auto& params = op.schema().arguments();
    std::vector<c10::IValue> args;
    const pt2::ValueLookup lookup = [this](const std::string& name) { return value(name); };
    for (const c10::Argument& param : params) args.push_back(argument(node, param, lookup));
    std::vector<c10::IValue> results = op.call(std::move(args));
    for (size_t i = 0; i < node.outputs.size() && i < results.size(); ++i)
      unpack(pt2::value_names(node.outputs[i]), results[i]);
  }

 private:
  static c10::IValue argument(const Node& node, const c10::Argument& param,
                              const pt2::ValueLookup& lookup) {
    for (const pt2::NodeArg& arg : node.inputs)
      if (arg.name == param.name()) return pt2::argument_value(arg.value, param, lookup);
    if (param.default_value()) return *param.default_value();
    throw pt2::UnsupportedArgument("the argument " + param.name() + " is missing");
  }

  // The root's result has forward's structure (its out_spec); a submodule call's is unknown to
  // the archive: its value, or a tuple of several.
  c10::IValue pack(int call, const std::vector<c10::IValue>& values) const {
    if (values.empty()) return c10::IValue();
    return pt2::unflatten(call == 0 ? out_spec_ : nlohmann::json(), values);
  }

  // Binds `names` to `out`: the value itself for one name, else the values inside it in order.
  void unpack(const std::vector<std::string>& names, const c10::IValue& out) {
    if (names.size() == 1 && !out.isList()) return bind(names[0], out);
    std::vector<c10::IValue> values;
    pt2::flatten(out, values);
    for (size_t i = 0; i < names.size() && i < values.size(); ++i) bind(names[i], values[i]);
  }

  const pt2::CallPlan& plan_;
  const nlohmann::json& out_spec_;
  CallHooks& hooks_;
  InstrumentOptions options_;
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

size_t user_inputs(const pt2::Program& program) {
  size_t n = 0;
  for (const InputSpec& in : program.inputs) n += in.kind == InputSpec::Kind::user_input;
  return n;
}

}  // namespace

GraphRunner::GraphRunner(const pt2::ExportedArchive& archive, const ModuleTree& tree,
                         InstrumentOptions options)
    : plan_(pt2::plan_calls(archive.program, tree)), options_(options) {
  for (const Node& node : archive.program.nodes) ops_.push_back(DispatcherOp::find(node.target));
}

void GraphRunner::check_runnable(const pt2::ExportedArchive& archive, size_t inputs) const {
  const pt2::Program& program = archive.program;
  for (size_t i = 0; i < program.nodes.size(); ++i)
    if (!ops_[i]) throw cannot_run(program.nodes[i], "LibTorch has no such operator", archive.path);
  if (inputs != user_inputs(program))
    throw Error(Exit::model_failed,
                "the program takes " + std::to_string(user_inputs(program)) + " tensor inputs, " +
                    std::to_string(inputs) + " given",
                archive.path, "give one --input per tensor argument of the exported forward");
}

c10::IValue GraphRunner::run(std::vector<c10::IValue> inputs, CallHooks& hooks,
                             pt2::ExportedArchive& archive) const {
  const pt2::Program& program = archive.program;
  check_runnable(archive, inputs.size());
  GraphRun run(plan_, program.out_spec, hooks, options_);
  bind_inputs(archive, inputs, run);
  run.enter_root(inputs);
  for (size_t i = 0; i <= program.nodes.size(); ++i) {
    for (int call : plan_.leave_before[i]) run.leave(call);
    for (int call : plan_.enter_before[i]) run.enter(call);
    if (i == program.nodes.size()) break;
    try {
      run.run_node(program.nodes[i], *ops_[i]);
    } catch (const pt2::UnsupportedArgument& e) {
      throw cannot_run(program.nodes[i], e.what(), archive.path);
    }
  }
  write_back_buffers(archive, run);
  return run.leave(0);
}

}  // namespace modrec
