// NumPy .npy files (format versions 1, 2 and 3), read and written without NumPy.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include <ATen/ATen.h>

namespace modrec {

// What a .npy header says: the data's dtype, byte order and shape (C order: a fortran_order
// array's shape comes back as the reversed one its bytes hold), and where the data starts.
struct NpyLayout {
  at::ScalarType type = at::kFloat;
  bool swap = false;     // big-endian data
  bool fortran = false;  // fortran_order: the bytes hold the transposed array
  std::vector<int64_t> shape;
  size_t data_at = 0;
};

// Parses the header at the start of `bytes` (the data need not follow). Throws
// Error(bad_input, ..., path, ...) for what parse_npy refuses in a header.
NpyLayout parse_npy_header(std::string_view bytes, const std::string& path);
// The data's size in bytes, checked against the `available` bytes after the header before any
// allocation (a few header bytes can claim terabytes): Error(bad_input) "truncated" otherwise.
size_t npy_data_size(const NpyLayout& layout, size_t available, const std::string& path);
// Big-endian values read into `t` turned native, in place.
void npy_swap_bytes(at::Tensor& t);

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
