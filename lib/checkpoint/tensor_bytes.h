// A checkpoint's tensor bytes, memory-mapped, walked in pieces on several threads: what check's
// statistics and diff's comparison stream through, tensor by tensor, without copying a file into
// memory (torch-free). Pages are read by the kernel as the pieces touch them.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "checkpoint/checkpoint.h"

namespace modrec {

class MappedFile;

class TensorBytes {
 public:
  // Maps every file of the checkpoint. Throws Error(bad_input) naming the file when one cannot be
  // mapped, or a tensor is stored strided (its bytes are not its elements in order).
  explicit TensorBytes(const Checkpoint& checkpoint);
  ~TensorBytes();
  TensorBytes(TensorBytes&&) noexcept;

  // The first byte of tensor `index` of the checkpoint.
  const unsigned char* data(size_t index) const;
  // Unmaps the whole pages within `bytes` bytes from `at` of tensor `index`, once read: they stay
  // in the page cache, and out of the process's resident memory, which stays flat in the files'
  // size. A page read again is mapped again.
  void release(size_t index, uint64_t at, uint64_t bytes) const;

 private:
  const Checkpoint* checkpoint_;
  std::vector<std::shared_ptr<const MappedFile>> files_;
};

// A run of consecutive elements of one tensor.
struct Piece {
  size_t tensor = 0;  // index into the tensors walked
  int64_t begin = 0, count = 0;
};

// Every tensor of `numels` cut into pieces of at most `max_elements`, in order: a tensor's pieces
// are consecutive and ascending.
std::vector<Piece> cut_into_pieces(const std::vector<int64_t>& numels, int64_t max_elements);

// Calls body(k) for every piece index k, on `threads` threads (0: one per core) that take the
// pieces in order as they become free. body must not throw.
void for_each_piece(size_t pieces, int threads, const std::function<void(size_t)>& body);

}  // namespace modrec
