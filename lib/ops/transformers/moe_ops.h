// transformers' mixture-of-experts operators (transformers/integrations/moe.py, registered with
// torch.library.custom_op when transformers is imported): the grouped matrix product its experts
// run when torch's grouped_mm cannot (under torch.export and torch.compile with weights other
// than bfloat16, old torch on the CPU), and its backward. LibTorch has neither and there is no
// library to load; they are defined here with their Python definitions' ATen calls, under the
// keys custom_op registers them: the forward CompositeExplicitAutograd, with the autograd of
// register_autograd (input and weight saved; their gradients from grouped_mm_fallback_backward,
// none to offs).
#pragma once
#include "ops/op_definer.h"

namespace modrec::pt2 {

// grouped_mm_fallback(Tensor input, Tensor weight, Tensor offs) -> Tensor and
// grouped_mm_fallback_backward(Tensor input, Tensor weight, Tensor offs, Tensor grad_output)
// -> (Tensor, Tensor), of namespace transformers.
void define_transformers(OpDefiner& ops);

}  // namespace modrec::pt2
