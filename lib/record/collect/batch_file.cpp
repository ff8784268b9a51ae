#include "record/collect/batch_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "util/atomic_file.h"
#include "util/error.h"
#include "util/stopwatch.h"

namespace modrec {
namespace {

// Whole transfers: write() and pread() may move fewer bytes than asked, and EINTR is retried.
template <class Io>
void transfer(Io io, const std::string& path, const char* what, char* data, uint64_t size) {
  while (size > 0) {
    const ssize_t n = io(data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;  // a short file: the spool was truncated
      throw write_error(what, path);
    }
    data += n;
    size -= static_cast<uint64_t>(n);
  }
}

}  // namespace

uint64_t BatchFileTensor::bytes() const {
  uint64_t n = c10::elementSize(dtype);
  for (int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

BatchFile::BatchFile(std::string path)
    : path_(std::make_shared<const std::string>(std::move(path))) {}

BatchFile::~BatchFile() {
  if (fd_ >= 0) ::close(fd_);
}

BatchFileTensor BatchFile::write(const at::Tensor& tensor) {
  const at::Tensor t = tensor.detach().to(at::kCPU).contiguous();
  std::lock_guard<std::mutex> lock(mutex_);
  Stopwatch clock;
  if (fd_ < 0) {
    make_directories(std::filesystem::path(*path_).parent_path().string());
    fd_ = ::open(path_->c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) throw write_error("cannot open", *path_);
  }
  BatchFileTensor s{path_, size_, t.scalar_type(), t.sizes().vec()};
  const uint64_t size = s.bytes();
  // An empty tensor's data pointer may be null: nothing is written for it.
  if (size > 0)
    transfer([&](char* p, uint64_t n) { return ::write(fd_, p, n); }, *path_, "cannot write",
             static_cast<char*>(t.data_ptr()), size);
  size_ += size;
  seconds_ += clock.lap();
  return s;
}

void take_stored(const BatchFileTensor& s, void* dst) {
  const uint64_t size = s.bytes();
  if (size == 0) return;
  const int fd = ::open(s.file->c_str(), O_RDWR | O_CLOEXEC);
  if (fd < 0) throw write_error("cannot open", *s.file);
  uint64_t offset = s.offset;
  try {
    transfer(
        [&](char* p, uint64_t n) {
          const ssize_t got = ::pread(fd, p, n, static_cast<off_t>(offset));
          if (got > 0) offset += static_cast<uint64_t>(got);
          return got;
        },
        *s.file, "cannot read back", static_cast<char*>(dst), size);
  } catch (...) {
    ::close(fd);
    throw;
  }
#ifdef FALLOC_FL_PUNCH_HOLE
  // Only space is at stake: where holes cannot be punched, the file goes with the spool anyway.
  ::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(s.offset),
              static_cast<off_t>(size));
#endif
  ::close(fd);
}

at::Tensor take_stored(const BatchFileTensor& s) {
  at::Tensor t = at::empty(s.shape, at::TensorOptions().dtype(s.dtype));
  take_stored(s, t.data_ptr());
  return t;
}

}  // namespace modrec
