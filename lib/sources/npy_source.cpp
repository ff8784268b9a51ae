#include "sources/npy_source.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string_view>

#include "sources/memory_source.h"
#include "tensor_files/npy.h"
#include "util/error.h"
#include "util/regular_file.h"

namespace modrec {
namespace {

// A read-only, private mapping of a whole file, unmapped when destroyed.
class Mapping {
 public:
  explicit Mapping(const std::string& path) {
    require_regular_file(path, "input file");
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat st {};
    if (fd < 0 || fstat(fd, &st) != 0) {
      if (fd >= 0) ::close(fd);
      throw Error(Exit::bad_input, "input file cannot be read", path, "check the path");
    }
    size_ = static_cast<size_t>(st.st_size);
    if (size_ > 0) data_ = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);  // the mapping keeps the file
    if (data_ == MAP_FAILED)
      throw Error(Exit::bad_input,
                  std::string("input file cannot be mapped: ") + std::strerror(errno), path,
                  "check the file");
  }
  ~Mapping() {
    if (data_ && data_ != MAP_FAILED) munmap(data_, size_);
  }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;

  std::string_view bytes() const { return {static_cast<const char*>(data_), data_ ? size_ : 0}; }

  // Drops the pages wholly inside [from, to) from this process: the file's pages stay in the
  // page cache, but no longer count in its resident memory.
  void release(size_t from, size_t to) const {
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t first = (from + page - 1) / page * page, last = to / page * page;
    if (last > first) madvise(static_cast<char*>(data_) + first, last - first, MADV_DONTNEED);
  }

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

class NpySource final : public SampleSource {
 public:
  NpySource(std::string path, std::unique_ptr<Mapping> map, const NpyLayout& layout)
      : SampleSource(layout.shape, layout.type),
        path_(std::move(path)),
        map_(std::move(map)),
        layout_(layout),
        row_bytes_(layout.shape.empty() ? 0 : row_bytes(layout)) {}

  at::Tensor rows(SampleRange range) override {
    std::vector<int64_t> shape = sizes();
    if (shape.empty()) return read(layout_.data_at, c10::elementSize(dtype()), shape);
    shape[0] = range.size();
    return read(layout_.data_at + static_cast<size_t>(range.start) * row_bytes_,
                static_cast<size_t>(range.size()) * row_bytes_, shape);
  }
  std::string kind() const override { return "npy"; }
  std::vector<SourceFile> files() const override { return {identify_file(path_)}; }

 private:
  static size_t row_bytes(const NpyLayout& layout) {
    size_t bytes = c10::elementSize(layout.type);
    for (size_t d = 1; d < layout.shape.size(); ++d) bytes *= static_cast<size_t>(layout.shape[d]);
    return bytes;
  }

  at::Tensor read(size_t at, size_t bytes, const std::vector<int64_t>& shape) {
    at::Tensor t = at::empty(shape, at::TensorOptions().dtype(dtype()));
    if (bytes > 0) std::memcpy(t.data_ptr(), map_->bytes().data() + at, bytes);
    map_->release(at, at + bytes);
    if (layout_.swap) npy_swap_bytes(t);
    return t;
  }

  std::string path_;
  std::unique_ptr<Mapping> map_;
  NpyLayout layout_;
  size_t row_bytes_;
};

// The source, or nullptr for a fortran_order array.
SourcePtr open_npy_source(const std::string& path) {
  auto map = std::make_unique<Mapping>(path);
  const std::string_view bytes = map->bytes();
  const NpyLayout layout = parse_npy_header(bytes, path);
  npy_data_size(layout, bytes.size() - layout.data_at, path);  // refuses a truncated file now
  if (layout.fortran) return nullptr;
  return std::make_shared<NpySource>(path, std::move(map), layout);
}

}  // namespace

SourcePtr npy_rows(const InputFile& npy) {
  if (SourcePtr rows = open_npy_source(npy.path)) return rows;
  return memory_source(read_saved_value(npy).toTensor(), "npy", npy.path);
}

}  // namespace modrec
