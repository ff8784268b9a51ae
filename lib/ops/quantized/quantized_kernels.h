// What quantized_ops.cpp registers (quantized_ops.h): the kernels of each namespace, and the
// helpers their Python definitions share.
#pragma once
#include <ATen/ATen.h>
#include <torch/library.h>

#include "ops/op_definer.h"

namespace modrec::pt2 {

void define_quantized_decomposed(OpDefiner& ops);
void define_torchao(OpDefiner& ops);
void define_export(OpDefiner& ops);  // subclass_inner.h

// torch's `1.0 / t` on a tensor: Tensor.__rdiv__, t.reciprocal() * 1.0 (the product is exact).
inline at::Tensor python_reciprocal(const at::Tensor& t) { return at::reciprocal(t); }

}  // namespace modrec::pt2
