// Many tensor files as one SampleSource: their samples concatenated along dim 0 in the order
// given (list_input_files sorts them). One file is open at a time, so the data may exceed memory
// as long as each file fits.
#pragma once
#include "sources/sample_source.h"

namespace modrec {

class FileSequenceSource final : public SampleSource {
 public:
  // Opens every file once to learn its samples (a .npy's header; a .pt is read). Error(bad_input)
  // naming the file when one holds other than one tensor of at least one dimension, or a dtype or
  // sizes after dim 0 other than the first file's.
  explicit FileSequenceSource(const std::vector<std::string>& paths)
      : FileSequenceSource(scan(paths)) {}

  at::Tensor rows(SampleRange range) override;
  std::string kind() const override { return "file_sequence"; }
  std::vector<SourceFile> files() const override;

 private:
  struct Part {
    std::string path;
    int64_t start = 0;  // its first sample in the sequence
    int64_t samples = 0;
  };
  struct Scanned {
    std::vector<int64_t> sizes;
    at::ScalarType dtype = at::kFloat;
    std::vector<Part> parts;
  };
  static Scanned scan(const std::vector<std::string>& paths);
  explicit FileSequenceSource(Scanned scanned)
      : SampleSource(scanned.sizes, scanned.dtype), parts_(std::move(scanned.parts)) {}
  SampleSource& open(size_t part);  // the part's source, closing the one open before

  std::vector<Part> parts_;
  size_t open_part_ = 0;
  SourcePtr open_;
};

}  // namespace modrec
