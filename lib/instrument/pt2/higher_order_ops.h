// The higher-order operators torch.export writes for user code (torch.ops.higher_order.*), run
// as eager PyTorch runs them: each runs its subgraphs through the caller's interpreter, under the
// grad mode or autocast state the node names (LibTorch's, restored after), once, by a predicate
// or per slice; auto_functionalized_v2 runs its mutating operator on copies
// (auto_functionalized.h); _export_tracepoint (torch/_export/wrappers.py: the marker
// preserve_module_call_signature puts around a submodule call, which torch 2.14's export erases
// and older ones may have left in an archive) returns its tensor arguments, the identity its CPU
// implementation is. torch/_higher_order_ops holds their Python definitions.
#pragma once
#include <ATen/core/ivalue.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "load/pt2/program.h"

namespace modrec::pt2 {

enum class HigherOrderOp {
  set_grad_enabled,
  autocast,
  cond,
  while_loop,
  map,
  auto_functionalized,
  export_tracepoint
};

// nullopt for a target that is no higher-order operator modrec runs.
std::optional<HigherOrderOp> higher_order_op(const std::string& target);

// Why `node`'s arguments do not fit `op` ("its input 0 is as_string where a bool goes", "it runs 2
// subgraphs and has 1"); "" when they do. Checked at load, so that running the node meets
// neither a missing subgraph nor a value of another type where the operator reads its mode.
std::string higher_order_mismatch(HigherOrderOp op, const Node& node);

// Runs subgraph `graph` (its index among the node's graph arguments) on `inputs`; its outputs.
using RunSubgraph =
    std::function<std::vector<c10::IValue>(int graph, std::vector<c10::IValue> inputs)>;

// The node's results. `args` are its arguments in order (`names`: theirs), a graph argument as
// its index, an operator as its target; the values after the last graph argument, flattened, are
// what its subgraphs take (with a map's slices and a loop's carried values put in). Throws
// UnsupportedArgument (node_args.h) on arguments that do not fit the operator.
std::vector<c10::IValue> run_higher_order(HigherOrderOp op, const std::vector<std::string>& names,
                                          const std::vector<c10::IValue>& args,
                                          const RunSubgraph& run);

}  // namespace modrec::pt2
