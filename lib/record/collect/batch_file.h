// The tensors one pass keeps (record --save pt|npy), written to one file the moment each is
// captured: in-place ops later in the pass cannot change them there, and the recording holds no
// copies in memory however many layers it keeps. The file stays in the run directory's .spool/
// until the recording is written; each capture's TensorSpool takes its tensors back by extent.
#pragma once
#include <ATen/ATen.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace modrec {

// A tensor's C-order bytes at `offset` in `file`.
struct BatchFileTensor {
  std::shared_ptr<const std::string> file;
  uint64_t offset = 0;
  at::ScalarType dtype = at::kFloat;
  std::vector<int64_t> shape;

  uint64_t bytes() const;
};

class BatchFile {
 public:
  explicit BatchFile(std::string path);  // nothing is created before the first write
  ~BatchFile();
  BatchFile(const BatchFile&) = delete;
  BatchFile& operator=(const BatchFile&) = delete;

  // Appends t (detached, on the CPU, contiguous). Throws Error(write_failed) naming the file.
  // Thread-safe: backward may run hooks on one thread per device.
  BatchFileTensor write(const at::Tensor& t);
  double seconds() const { return seconds_; }  // spent in write(): disk time
  const std::string& path() const { return *path_; }

 private:
  std::mutex mutex_;
  std::shared_ptr<const std::string> path_;
  int fd_ = -1;
  uint64_t size_ = 0;
  double seconds_ = 0;
};

// Reads s's bytes into dst (s.bytes() of room), once: its disk space is given back (a hole
// punched where the filesystem allows it), so that writing the final files does not need the
// recording's size twice. Throws Error(write_failed) naming the file.
void take_stored(const BatchFileTensor& s, void* dst);
// s as a new tensor of its dtype and shape, the same way.
at::Tensor take_stored(const BatchFileTensor& s);

}  // namespace modrec
