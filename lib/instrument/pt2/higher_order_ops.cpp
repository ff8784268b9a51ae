#include "instrument/pt2/higher_order_ops.h"

#include <ATen/ATen.h>
#include <ATen/autocast_mode.h>
#include <c10/core/GradMode.h>

#include <algorithm>
#include <map>

#include "values/ivalue_walk.h"
#include "instrument/pt2/auto_functionalized.h"
#include "instrument/pt2/node_args.h"

namespace modrec::pt2 {
namespace {

// The flattened values after the first `skip` arguments.
std::vector<c10::IValue> operands(const std::vector<c10::IValue>& args, size_t skip) {
  std::vector<c10::IValue> out;
  for (size_t i = skip; i < args.size(); ++i) flatten_values(args[i], out);
  return out;
}

const c10::IValue& arg(const std::vector<c10::IValue>& args, size_t i) {
  if (i >= args.size()) throw UnsupportedArgument("the operator takes more arguments");
  return args[i];
}

// A predicate as Python's bool() takes it: a one-element tensor or a (symbolic) bool.
bool truth(const c10::IValue& pred) {
  if (pred.isTensor()) return pred.toTensor().item<bool>();
  if (pred.isBool()) return pred.toBool();
  throw UnsupportedArgument("the predicate is neither a tensor nor a bool");
}

// torch.autocast's __enter__ and __exit__ (torch/amp/autocast_mode.py) for one device type.
class AutocastScope {
 public:
  AutocastScope(c10::DeviceType device, std::optional<at::ScalarType> dtype, bool enabled,
                std::optional<bool> cache)
      : device_(device),
        was_enabled_(at::autocast::is_autocast_enabled(device)),
        old_dtype_(at::autocast::get_autocast_dtype(device)),
        old_cache_(at::autocast::is_autocast_cache_enabled()) {
    at::autocast::set_autocast_enabled(device, enabled);
    at::autocast::set_autocast_dtype(device, dtype.value_or(old_dtype_));
    at::autocast::increment_nesting();
    at::autocast::set_autocast_cache_enabled(cache.value_or(old_cache_));
  }
  ~AutocastScope() {
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    at::autocast::set_autocast_enabled(device_, was_enabled_);
    at::autocast::set_autocast_dtype(device_, old_dtype_);
    at::autocast::set_autocast_cache_enabled(old_cache_);
  }
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  c10::DeviceType device_;
  bool was_enabled_;
  at::ScalarType old_dtype_;
  bool old_cache_;
};

// wrap_with_autocast(device_type, dtype, enabled, cache_enabled, graph, *args)
std::vector<c10::IValue> autocast(const std::vector<c10::IValue>& args, const RunSubgraph& run) {
  const c10::IValue& dtype = arg(args, 1);
  const c10::IValue& cache = arg(args, 3);
  AutocastScope scope(c10::Device(arg(args, 0).toStringRef()).type(),
                      dtype.isNone() ? std::nullopt : std::optional(dtype.toScalarType()),
                      arg(args, 2).toBool(),
                      cache.isNone() ? std::nullopt : std::optional(cache.toBool()));
  return run(0, operands(args, 5));
}

// while_loop(cond_graph, body_graph, carried_inputs, additional_inputs): the carried values.
std::vector<c10::IValue> while_loop(const std::vector<c10::IValue>& args, const RunSubgraph& run) {
  std::vector<c10::IValue> carried = operands({arg(args, 2)}, 0);
  const std::vector<c10::IValue> extra = operands({arg(args, 3)}, 0);
  const auto with_extra = [&] {
    std::vector<c10::IValue> in = carried;
    in.insert(in.end(), extra.begin(), extra.end());
    return in;
  };
  while (truth(run(0, with_extra()).at(0))) carried = run(1, with_extra());
  return carried;
}

// map_impl(body_graph, xs, pos_args): the body over each slice of xs' first dimension, each of
// its outputs stacked.
std::vector<c10::IValue> map(const std::vector<c10::IValue>& args, const RunSubgraph& run) {
  const std::vector<c10::IValue> xs = operands({arg(args, 1)}, 0);
  const std::vector<c10::IValue> pos = operands({arg(args, 2)}, 0);
  if (xs.empty() || !xs[0].isTensor()) throw UnsupportedArgument("map takes no tensor to map over");
  std::vector<std::vector<at::Tensor>> slices;  // per output
  for (int64_t i = 0; i < xs[0].toTensor().size(0); ++i) {
    std::vector<c10::IValue> in;
    for (const c10::IValue& x : xs) in.emplace_back(x.toTensor().select(0, i));
    in.insert(in.end(), pos.begin(), pos.end());
    const std::vector<c10::IValue> outs = run(0, std::move(in));
    slices.resize(outs.size());
    for (size_t o = 0; o < outs.size(); ++o) slices[o].push_back(outs[o].toTensor());
  }
  std::vector<c10::IValue> out;
  for (const std::vector<at::Tensor>& parts : slices) out.emplace_back(at::stack(parts));
  return out;
}

// _export_tracepoint(*args, kind=..., path=...): its positional arguments, unchanged.
std::vector<c10::IValue> tracepoint(const std::vector<std::string>& names,
                                    const std::vector<c10::IValue>& args) {
  std::vector<c10::IValue> out;
  for (size_t i = 0; i < args.size(); ++i)
    if (i >= names.size() || (names[i] != "kind" && names[i] != "path")) out.push_back(args[i]);
  return out;
}

}  // namespace

std::optional<HigherOrderOp> higher_order_op(const std::string& target) {
  using H = HigherOrderOp;
  static const std::map<std::string, H> ops{
      {"torch.ops.higher_order.wrap_with_set_grad_enabled", H::set_grad_enabled},
      {"torch.ops.higher_order.wrap_with_autocast", H::autocast},
      {"torch.ops.higher_order.cond", H::cond},
      {"torch.ops.higher_order.while_loop", H::while_loop},
      {"torch.ops.higher_order.map_impl", H::map},
      {"torch.ops.higher_order.auto_functionalized_v2", H::auto_functionalized},
      {"torch.ops.higher_order._export_tracepoint", H::export_tracepoint}};
  auto it = ops.find(target);
  if (it == ops.end()) return std::nullopt;
  return it->second;
}

std::string higher_order_mismatch(HigherOrderOp op, const Node& node) {
  using K = Argument::Kind;
  using H = HigherOrderOp;
  struct Form {
    size_t graphs;
    std::vector<std::vector<K>> leading;  // per leading argument: the kinds it may be
  };
  static const std::map<H, Form> forms{
      {H::set_grad_enabled, {1, {{K::bool_}, {K::graph}}}},
      {H::autocast,
       {1, {{K::string}, {K::scalar_type, K::none}, {K::bool_}, {K::bool_, K::none}, {K::graph}}}},
      {H::cond, {2, {{K::tensor, K::bool_, K::sym_bool}, {K::graph}, {K::graph}}}},
      {H::while_loop, {2, {{K::graph}, {K::graph}}}},
      {H::map, {1, {{K::graph}}}},
      {H::auto_functionalized, {0, {{K::op}}}},
      {H::export_tracepoint, {0, {}}},
  };
  const Form& form = forms.at(op);
  if (node.graphs.size() < form.graphs)
    return "it runs " + std::to_string(form.graphs) + " subgraphs and has " +
           std::to_string(node.graphs.size());
  for (size_t i = 0; i < form.leading.size(); ++i) {
    if (i >= node.inputs.size()) return "it takes more arguments";
    const Argument& a = node.inputs[i].value;
    if (std::ranges::find(form.leading[i], a.kind) == form.leading[i].end())
      return "its input " + node.inputs[i].name + " is " + tag_of(a) +
             ", which this operator does not take there";
  }
  return "";
}

std::vector<c10::IValue> run_higher_order(HigherOrderOp op, const std::vector<std::string>& names,
                                          const std::vector<c10::IValue>& args,
                                          const RunSubgraph& run) {
  switch (op) {
    case HigherOrderOp::set_grad_enabled: {  // (enabled, graph, *args)
      const c10::AutoGradMode mode(arg(args, 0).toBool());
      return run(0, operands(args, 2));
    }
    case HigherOrderOp::autocast:
      return autocast(args, run);
    case HigherOrderOp::cond:  // (pred, true_graph, false_graph, operands)
      return run(truth(arg(args, 0)) ? 0 : 1, operands(args, 3));
    case HigherOrderOp::while_loop:
      return while_loop(args, run);
    case HigherOrderOp::map:
      return map(args, run);
    case HigherOrderOp::auto_functionalized:
      return run_auto_functionalized(names, args);
    case HigherOrderOp::export_tracepoint:
      return tracepoint(names, args);
  }
  throw std::logic_error("unknown higher-order operator");
}

}  // namespace modrec::pt2
