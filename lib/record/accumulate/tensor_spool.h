// The batches of one captured tensor, concatenated along dim 0 only when the recording is
// written: until then a list of extents in the passes' batch files (BatchFile), so that a batched
// recording never holds its batches in memory. The data is C-order bytes in the host's byte order
// (little-endian: the only order .npy files are written in here).
// Concatenation needs dim 0 and equal trailing shapes: a second batch of a 0-dim tensor, or a batch
// whose dtype or trailing shape differs from the first, throws Error(model_failed) naming `where`
// (no fallback: saving only part of the batches would be silently wrong).
#pragma once
#include <ATen/ATen.h>

#include <string>
#include <vector>

#include "record/collect/batch_file.h"

namespace modrec {

class TensorSpool {
 public:
  explicit TensorSpool(std::string where) : where_(std::move(where)) {}

  void append(const BatchFileTensor& t);  // one batch
  // The concatenated shape so far (empty before the first batch).
  const std::vector<int64_t>& shape() const { return shape_; }

  // Either, once: the .npy file at `path` (its folder must exist; bfloat16 is stored as float32,
  // see npy_storable), or the concatenated tensor, dtype kept (for .pt files). The batches are
  // taken from their batch files (take_stored), which gives their disk space back.
  void write_npy(const std::string& path);
  at::Tensor take();

 private:
  void check_fits(const BatchFileTensor& t) const;

  std::string where_;
  std::vector<BatchFileTensor> batches_;
  std::vector<int64_t> shape_;
};

}  // namespace modrec
