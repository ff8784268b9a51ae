// torch.utils.flop_counter's FLOP formulas (FlopCounterMode, PyTorch 2.14) as arithmetic on the
// shapes of an operator's arguments and results (torch-free). A multiply-add is 2 FLOPs.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "model/module_tree.h"

namespace modrec {

// One argument or result of an operator as the formulas see it: a tensor by its shape, a list of
// ints or bools, a single number, or anything else (None, strings) as `other`.
struct OpArg {
  enum class Kind { other, tensor, ints, number };
  Kind kind = Kind::other;
  std::vector<int64_t> values;  // the tensor's shape, the list, or the one number

  static OpArg tensor(Shape shape) { return {Kind::tensor, std::move(shape)}; }
  static OpArg ints(std::vector<int64_t> v) { return {Kind::ints, std::move(v)}; }
  static OpArg number(int64_t v) { return {Kind::number, {v}}; }
};

// Whether FlopCounterMode registers a formula for this operator ("aten::mm").
bool has_flop_formula(std::string_view op);

// The op's FLOPs per FlopCounterMode, or nullopt when it has no formula or its arguments are not
// what the formula reads (nested-tensor attention, a missing shape): such ops are not guessed.
std::optional<int64_t> op_flops(std::string_view op, const std::vector<OpArg>& args,
                                const std::vector<OpArg>& results);

}  // namespace modrec
