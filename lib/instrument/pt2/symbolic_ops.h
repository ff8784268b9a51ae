// The Python scalar operators torch.export writes for arithmetic on sizes: a dynamic dimension's
// `b * t // 2` is a node whose target is _operator.mul or _operator.floordiv, a data-dependent
// size's check _operator.ge, and torch.sym_max and the like. They compute on the ints, floats and
// bools that sym_size and other nodes give, with Python's semantics (floor division and modulo
// toward negative infinity, `/` a float).
#pragma once
#include <ATen/core/ivalue.h>

#include <string>
#include <vector>

namespace modrec::pt2 {

using SymbolicOp = c10::IValue (*)(const std::vector<c10::IValue>& args);

// The operator a node's target names ("_operator.mul", "math.trunc", "torch.sym_max"), or
// nullptr when it is not one of them. Running one throws UnsupportedArgument (node_args.h) for
// arguments that are not numbers, or a division by zero.
SymbolicOp symbolic_op(const std::string& target);

}  // namespace modrec::pt2
