#include "sources/file_sequence.h"

#include <algorithm>

#include "files/scalar_type.h"
#include "util/error.h"

namespace modrec {
namespace {

// The one source a file of a sequence gives.
SourcePtr open_one(const std::string& path) {
  std::vector<SourcePtr> sources = open_input(path);
  if (sources.size() != 1 || sources[0]->samples() < 0)
    throw Error(Exit::bad_input,
                "input file of a sequence must hold one tensor with a dim 0 of samples", path,
                "save each file with torch.save(t, path) or numpy.save(path, a)");
  return sources[0];
}

std::string shape_text(std::vector<int64_t> sizes) {
  sizes.erase(sizes.begin());
  std::string text = "(…";
  for (int64_t d : sizes) text += ", " + std::to_string(d);
  return text + ")";
}

}  // namespace

// The sizes and dtype of the whole sequence, each file checked against the first.
FileSequenceSource::Scanned FileSequenceSource::scan(const std::vector<std::string>& paths) {
  Scanned out;
  for (const auto& path : paths) {
    SourcePtr s = open_one(path);
    if (out.parts.empty()) {
      out.sizes = s->sizes();
      out.sizes[0] = 0;
      out.dtype = s->dtype();
    }
    const std::vector<int64_t>& sizes = s->sizes();
    const bool same_rows = sizes.size() == out.sizes.size() &&
                           std::equal(sizes.begin() + 1, sizes.end(), out.sizes.begin() + 1);
    if (!same_rows || s->dtype() != out.dtype)
      throw Error(Exit::bad_input,
                  "input file holds " + dtype_name(s->dtype()) + " samples of shape " +
                      shape_text(s->sizes()) + ", the sequence's first file " +
                      dtype_name(out.dtype) + " of " + shape_text(out.sizes),
                  path, "give files of one dtype and one sample shape");
    out.parts.push_back({path, out.sizes[0], s->samples()});
    out.sizes[0] += s->samples();
  }
  return out;
}

SampleSource& FileSequenceSource::open(size_t part) {
  if (!open_ || open_part_ != part) {
    open_.reset();  // one file at a time
    open_ = open_one(parts_[part].path);
    open_part_ = part;
  }
  return *open_;
}

at::Tensor FileSequenceSource::rows(SampleRange range) {
  std::vector<at::Tensor> pieces;
  for (size_t i = 0; i < parts_.size() && range.size() > 0; ++i) {
    const Part& p = parts_[i];
    if (range.start >= p.start + p.samples) continue;
    const int64_t end = std::min(range.end, p.start + p.samples);
    pieces.push_back(open(i).rows({range.start - p.start, end - p.start}));
    range.start = end;
  }
  if (pieces.size() == 1) return pieces[0];
  if (pieces.empty()) {  // an empty range
    std::vector<int64_t> shape = sizes();
    shape[0] = 0;
    return at::empty(shape, at::TensorOptions().dtype(dtype()));
  }
  return at::cat(pieces);
}

std::vector<SourceFile> FileSequenceSource::files() const {
  std::vector<SourceFile> out;
  for (const auto& p : parts_) out.push_back(identify_file(p.path));
  return out;
}

}  // namespace modrec
