#include "checkpoint/tensor_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

#include "util/error.h"
#include "util/parallel_parts.h"
#include "util/text.h"

namespace modrec {

class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd < 0 || ::fstat(fd, &st) != 0) fail(path, fd);
    size_ = static_cast<size_t>(st.st_size);
    if (size_) {
      void* at = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
      if (at == MAP_FAILED) fail(path, fd);
      data_ = static_cast<const unsigned char*>(at);
      // One pass front to back: the kernel reads ahead, and drops what was read first.
      ::madvise(at, size_, MADV_SEQUENTIAL);
    }
    ::close(fd);
  }
  ~MappedFile() {
    if (data_) ::munmap(const_cast<unsigned char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const unsigned char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  [[noreturn]] static void fail(const std::string& path, int fd) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    throw Error(Exit::bad_input, "checkpoint file cannot be mapped: " + why, path,
                "check that the file exists and is readable");
  }

  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
};

TensorBytes::TensorBytes(const Checkpoint& checkpoint) : checkpoint_(&checkpoint) {
  for (const CheckpointTensor& t : checkpoint.tensors)
    if (!t.contiguous)
      throw Error(Exit::bad_input, one_line("tensor " + t.name + " is stored strided (a view)"),
                  checkpoint.path,
                  "save contiguous tensors: {k: v.contiguous() for k, v in state_dict.items()}");
  for (const std::string& file : checkpoint.files)
    files_.push_back(std::make_shared<const MappedFile>(file));
  for (const CheckpointTensor& t : checkpoint.tensors)
    if (t.offset + t.bytes > files_[static_cast<size_t>(t.file)]->size())
      throw Error(Exit::bad_input, one_line("tensor " + t.name + " lies past the end of its file"),
                  checkpoint.files[static_cast<size_t>(t.file)],
                  "the file shrank since it was read, or is damaged");
}

TensorBytes::~TensorBytes() = default;
TensorBytes::TensorBytes(TensorBytes&&) noexcept = default;

const unsigned char* TensorBytes::data(size_t index) const {
  const CheckpointTensor& t = checkpoint_->tensors[index];
  return files_[static_cast<size_t>(t.file)]->data() + t.offset;
}

void TensorBytes::release(size_t index, uint64_t at, uint64_t bytes) const {
  static const uintptr_t page = static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE));
  const uintptr_t begin = reinterpret_cast<uintptr_t>(data(index) + at);
  const uintptr_t first = (begin + page - 1) / page * page, end = (begin + bytes) / page * page;
  if (first < end) ::madvise(reinterpret_cast<void*>(first), end - first, MADV_DONTNEED);
}

std::vector<Piece> cut_into_pieces(const std::vector<int64_t>& numels, int64_t max_elements) {
  std::vector<Piece> pieces;
  for (size_t t = 0; t < numels.size(); ++t) {
    int64_t begin = 0;
    do {
      const int64_t count = std::min(max_elements, numels[t] - begin);
      pieces.push_back({t, begin, count});
      begin += count;
    } while (begin < numels[t]);
  }
  return pieces;
}

void for_each_piece(size_t pieces, int threads, const std::function<void(size_t)>& body) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<size_t> next{0};
  run_parts(threads, [&](int) {
    for (size_t k = next++; k < pieces; k = next++) body(k);
  });
}

}  // namespace modrec
