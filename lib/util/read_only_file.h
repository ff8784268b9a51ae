// A file opened once for reading at any offset (pread), shared by whatever reads it: a model file
// is classified, its zip directory read and its entries read through one open file.
#pragma once
#include <cstdint>
#include <memory>
#include <string>

namespace modrec {

class ReadOnlyFile {
 public:
  // nullptr when `path` cannot be opened for reading (the caller says why, in its terms).
  static std::shared_ptr<const ReadOnlyFile> open(const std::string& path);
  // `size` bytes of `file` from `offset` as a file of their own (a zip stored inside a zip: a
  // .pt2's pickled weight), read through the same open file; nullptr when they lie past its end.
  static std::shared_ptr<const ReadOnlyFile> window(std::shared_ptr<const ReadOnlyFile> file,
                                                    uint64_t offset, uint64_t size);
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  ~ReadOnlyFile();

  uint64_t size() const { return size_; }
  // Reads `size` bytes at `offset` into `out`: false when the file ends first (it shrank since
  // it was opened) or on an I/O error.
  bool read(uint64_t offset, void* out, uint64_t size) const;

 private:
  ReadOnlyFile(int fd, uint64_t size) : fd_(fd), size_(size) {}
  int fd_;
  uint64_t size_;
  uint64_t base_ = 0;                           // a window's offset in its file
  std::shared_ptr<const ReadOnlyFile> parent_;  // a window's file, which owns fd_
};

}  // namespace modrec
