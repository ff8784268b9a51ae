// The operators that programs call and that exist in Python only. The quantization operators of
// PT2E programs:
// quantized_decomposed:: (torch/ao/quantization/fx/_decomposed.py, which torch registers when that
// module is imported) and torchao:: (torchao/quantization/quant_primitives.py). LibTorch has none
// of them and there is no library to load, so modrec implements them in C++ with their Python
// definitions' arithmetic, op for op, registered under the dispatch keys Python uses: eager
// autograd's gradients through them are then LibTorch's own (nothing through an integer result,
// the autograd fallback's through a CompositeExplicitAutograd kernel, torchao's straight-through
// rounding, fake_quant_per_channel's masked gradient).
#pragma once
#include <string>

namespace modrec::pt2 {

// Defines, once, the operators of namespace `ns` (quantized_decomposed, torchao, export's
// access_subclass_inner_tensor: ops/quantized/subclass_inner.h, transformers:
// ops/transformers/moe_ops.h) that modrec implements and that neither LibTorch nor a loaded
// library registers. True when it defined some now; false for another namespace or when done
// before.
bool define_python_only_operators(const std::string& ns);

// The Python package that registers the operators of namespace `ns` from Python
// (torch.library), where no shared library has them: "transformers" for transformers:: and
// transformers_msa::; "" for a namespace not known to be Python's.
std::string python_package_of(const std::string& ns);

}  // namespace modrec::pt2
