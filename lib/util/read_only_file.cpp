#include "util/read_only_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace modrec {

std::shared_ptr<const ReadOnlyFile> ReadOnlyFile::open(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return nullptr;
  }
  return std::shared_ptr<const ReadOnlyFile>(
      new ReadOnlyFile(fd, static_cast<uint64_t>(st.st_size)));
}

std::shared_ptr<const ReadOnlyFile> ReadOnlyFile::window(std::shared_ptr<const ReadOnlyFile> file,
                                                         uint64_t offset, uint64_t size) {
  if (!file || offset > file->size_ || size > file->size_ - offset) return nullptr;
  auto out = std::shared_ptr<ReadOnlyFile>(new ReadOnlyFile(file->fd_, size));
  out->base_ = file->base_ + offset;
  out->parent_ = std::move(file);
  return out;
}

ReadOnlyFile::~ReadOnlyFile() {
  if (!parent_) ::close(fd_);
}

bool ReadOnlyFile::read(uint64_t offset, void* out, uint64_t size) const {
  if (offset > size_ || size > size_ - offset) return false;
  offset += base_;
  auto* to = static_cast<char*>(out);
  while (size > 0) {
    const ssize_t got = ::pread(fd_, to, size, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    to += got;
    offset += static_cast<uint64_t>(got);
    size -= static_cast<uint64_t>(got);
  }
  return true;
}

}  // namespace modrec
