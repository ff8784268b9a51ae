// The batches of one captured tensor appended to a file as they come, concatenated along dim 0,
// so that a batched recording holds one batch in memory instead of all of them. The data is C-order
// bytes in the host's byte order (little-endian: the only order .npy files are written in here).
//   Layout::npy  the file is the final .npy: its header is written at the first batch with room
//                for any dim-0 length and rewritten in place, same length, by finish(). bfloat16
//                is stored as float32 (npy_storable).
//   Layout::raw  data only, read back whole by take() (for .pt files, written in one piece).
// Concatenation needs dim 0 and equal trailing shapes: a second batch of a 0-dim tensor, or a batch
// whose dtype or trailing shape differs from the first, throws Error(model_failed) naming `where`
// (no fallback: saving only part of the batches would be silently wrong).
#pragma once
#include <ATen/ATen.h>

#include <string>
#include <vector>

namespace modrec {

class TensorSpool {
 public:
  enum class Layout { npy, raw };

  // Nothing is created before the first append(), which also creates the file's folder.
  TensorSpool(std::string path, Layout layout, std::string where);

  void append(const at::Tensor& t);  // one batch
  // The concatenated shape so far (empty before the first batch).
  const std::vector<int64_t>& shape() const { return shape_; }

  void finish();     // npy: writes the header with the final shape
  at::Tensor take();  // raw: the concatenated tensor; deletes the file, and its folder once empty

 private:
  void start(const at::Tensor& t);
  void check_fits(const at::Tensor& t) const;

  std::string path_;
  Layout layout_;
  std::string where_;
  at::ScalarType dtype_ = at::kFloat;  // as stored
  std::vector<int64_t> shape_;
  size_t header_size_ = 0;  // npy
  bool started_ = false;
};

}  // namespace modrec
