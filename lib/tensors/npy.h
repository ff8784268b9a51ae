// NumPy .npy files (format versions 1, 2 and 3), read and written without NumPy.
#pragma once
#include <string>

#include <ATen/ATen.h>

namespace modrec {

// Parses the bytes of a .npy file. dtypes f2 f4 f8 c8 c16 i1 i2 i4 i8 u1 b1, little- or big-endian;
// fortran_order arrays come back as contiguous (C order) tensors with the same values.
// Throws Error(bad_input, ..., path, ...) for anything else.
at::Tensor parse_npy(const std::string& bytes, const std::string& path);

// The bytes of a version 1.0 .npy file holding `t` (C order). bfloat16 has no NumPy dtype and is
// written as float32 ('<f4'), exactly; float16 is '<f2'. Throws Error(write_failed) for dtypes
// NumPy cannot hold (quantized types).
std::string npy_bytes(const at::Tensor& t, const std::string& path);

}  // namespace modrec
