// A .npy file written as its data comes (C order): the header for the whole shape first, then
// the tensors' bytes appended one after another, so the array is never all in memory. record
// writes concatenated batches this way (record/accumulate/tensor_spool.h), merge concatenated
// shards.
#pragma once
#include <ATen/ATen.h>

#include <cstdio>
#include <memory>
#include <string>

namespace modrec {

class NpyStream {
 public:
  // Creates `path` (its folder must exist) and writes the header of a `type` array of `shape`
  // (bfloat16 is stored as float32: see npy_storable). Throws Error(write_failed) naming `path`.
  NpyStream(const std::string& path, at::ScalarType type, at::IntArrayRef shape);

  // The next rows: their npy_storable bytes. Throws Error(write_failed) naming the file.
  void append(const at::Tensor& rows);
  // Flushes; throws Error(write_failed) when the bytes appended do not fill the shape, or the
  // file cannot be written.
  void close();

 private:
  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
  uint64_t expected_ = 0;  // data bytes the header announces
  uint64_t written_ = 0;
};

}  // namespace modrec
