// NumPy .npy files (format versions 1, 2 and 3), read and written without NumPy.
#pragma once
#include <string>

#include <ATen/ATen.h>

namespace modrec {

// Parses the bytes of a .npy file. dtypes f2 f4 f8 c8 c16 i1 i2 i4 i8 u1 b1, little- or big-endian;
// fortran_order arrays come back as contiguous (C order) tensors with the same values.
// Throws Error(bad_input, ..., path, ...) for anything else.
at::Tensor parse_npy(const std::string& bytes, const std::string& path);

// The header of a .npy file (magic to newline) for C-order data of `type` and `shape`, padded so
// that the data starts 64-byte aligned and the header is at least `min_length` bytes: a header
// reserved for a larger shape can later be rewritten in place. Version 1.0 unless the dict needs
// more than 64 KiB. The descr is npy_storable's dtype. Throws Error(write_failed) naming `path`
// for dtypes NumPy cannot hold (quantized types).
std::string npy_header(at::ScalarType type, at::IntArrayRef shape, const std::string& path,
                       size_t min_length = 0);

// `t` as the bytes of a .npy file hold it: detached, on the CPU, contiguous, bfloat16 as float32
// (exact: bfloat16 is float32 with a shorter mantissa).
at::Tensor npy_storable(const at::Tensor& t);

// The bytes of a version 1.0 .npy file holding `t` (C order). bfloat16 has no NumPy dtype and is
// written as float32 ('<f4'), exactly; float16 is '<f2'. Throws Error(write_failed) for dtypes
// NumPy cannot hold (quantized types).
std::string npy_bytes(const at::Tensor& t, const std::string& path);

}  // namespace modrec
