// export::access_subclass_inner_tensor(Tensor src_subclass_tensor, str attr) -> Tensor, the
// operator a program exported with tensor-subclass weights (torchao's quantized ones) reads their
// inner tensors with. torch registers it in Python (torch/export/custom_ops.py: getattr(src,
// attr)); modrec has no subclass objects, so the tensor that stands for one carries its inner
// tensors here, attached when its archive is read (load/pt2/pickled_weight.h).
#pragma once
#include <ATen/core/Tensor.h>

#include <map>
#include <string>

namespace modrec::pt2 {

// From now on, and while `outer` lives, access_subclass_inner_tensor(outer, name) returns
// inner[name] (the same tensor, no copy: as getattr does).
void attach_inner_tensors(const at::Tensor& outer, std::map<std::string, at::Tensor> inner);

}  // namespace modrec::pt2
