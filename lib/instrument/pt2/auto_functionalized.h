// torch.ops.higher_order.auto_functionalized_v2, which an export decomposed to its inference IR
// (ExportedProgram.run_decompositions) writes for an operator that mutates its arguments (a team's
// TORCH_LIBRARY op with a `Tensor(a!)` argument): the operator runs on copies of the bases of the
// arguments it mutates, so the graph stays functional. As the dense kernel of
// torch/_higher_order_ops/auto_functionalize.py: each mutated argument is regenerated from its
// base's copy (`_<arg>_base_index`, and `_<arg>_alias`, `_<arg>_size`/`_stride`/
// `_storage_offset` or `_<arg>_slice_dim`/`_start`/`_end` for a view of it); the results are the
// operator's (None for none), then the copies after the call.
#pragma once
#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace modrec::pt2 {

// `names` and `args`: the node's arguments in order, the first the operator's target
// ("torch.ops.myops.add_one_.default"). Throws UnsupportedArgument (node_args.h) for an operator
// LibTorch lacks, an out= operator, or an argument that does not fit.
std::vector<c10::IValue> run_auto_functionalized(const std::vector<std::string>& names,
                                                 const std::vector<c10::IValue>& args);

}  // namespace modrec::pt2
