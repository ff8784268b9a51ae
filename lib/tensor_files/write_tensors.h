// Writing tensors that Python reads back: .pt for torch.load, .npy for numpy.load. Every writer
// writes `path + ".tmp"` and renames it into place, so no partial file is ever left at `path`.
#pragma once
#include <string>

#include <ATen/core/ivalue.h>

namespace modrec {

// `value` is a tensor or None, or a tuple/list/dict of them (nested allowed). Tensors are
// saved as contiguous CPU clones, so a view does not drag its whole storage along. Throws
// Error(Exit::write_failed).
void write_pt(const std::string& path, const c10::IValue& value);

// See npy_bytes (tensor_files/npy.h): bfloat16 is written as float32. Throws
// Error(Exit::write_failed).
void write_npy(const std::string& path, const at::Tensor& t);

}  // namespace modrec
