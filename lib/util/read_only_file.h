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
};

}  // namespace modrec
