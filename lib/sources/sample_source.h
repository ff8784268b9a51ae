// An --input as a source of samples along dim 0, read a range at a time: a batch is in memory
// while it runs, the data as a whole never is (except for a .pt file, which LibTorch reads whole).
//
// What --input names, and what it gives (open_input):
// - a .npy file (recognised by its magic, whatever its name): one source, memory-mapped; rows are
//   copied out per batch and their pages released. A fortran_order array is read whole (its rows
//   are not contiguous in the file).
// - a torch.save file: one source per tensor it holds (a tuple gives one per forward argument),
//   in memory.
// - a directory, or a glob pattern (quoted, so that modrec expands it): one source whose samples
//   are those of its .pt/.npy files, in sorted order, concatenated along dim 0. Each file holds one
//   tensor; all of them have the same dtype and the same sizes after dim 0. Only one file is open
//   at a time; .pt files are read twice (once to count their samples when opened).
#pragma once
#include <ATen/ATen.h>

#include <memory>
#include <string>
#include <vector>

#include "sources/shard.h"
#include "sources/source_files.h"

namespace modrec {

class SampleSource {
 public:
  virtual ~SampleSource() = default;

  // The whole input's sizes and dtype: dim 0 counts the samples.
  const std::vector<int64_t>& sizes() const { return sizes_; }
  at::ScalarType dtype() const { return dtype_; }
  // sizes()[0]; -1 for a 0-dim tensor, which has no samples to batch or shard.
  int64_t samples() const { return sizes_.empty() ? -1 : sizes_[0]; }

  // Rows [range.start, range.end) as a CPU tensor; the range must lie within samples(). The
  // tensor may share memory the source holds, never memory it will reuse.
  virtual at::Tensor rows(SampleRange range) = 0;
  // Everything, also a 0-dim tensor.
  virtual at::Tensor all() { return rows({0, samples()}); }

  virtual std::string kind() const = 0;  // "npy", "tensor_file", "file_sequence" or "random"
  virtual std::vector<SourceFile> files() const = 0;  // identified (files the manifest lists)

 protected:
  SampleSource(std::vector<int64_t> sizes, at::ScalarType dtype)
      : sizes_(std::move(sizes)), dtype_(dtype) {}

 private:
  std::vector<int64_t> sizes_;
  at::ScalarType dtype_;
};

using SourcePtr = std::shared_ptr<SampleSource>;

// The sources one --input gives (see above). Errors are read_inputs' and Error(bad_input) naming
// the file that does not fit a sequence.
std::vector<SourcePtr> open_input(const std::string& text);

// open_input's sources, and whether the file holds a list (not a tuple or a tensor): a list is one
// argument when forward declares a List[Tensor] in its place (arguments/forward_inputs.h).
struct InputSources {
  std::vector<SourcePtr> sources;
  bool list = false;
};
InputSources open_input_sources(const std::string& text);

}  // namespace modrec
