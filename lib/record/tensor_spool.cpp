#include "record/tensor_spool.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <memory>

#include "tensors/dtype.h"
#include "tensors/npy.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

Error io_error(const std::string& what, const std::string& path) {
  return Error(Exit::write_failed, what + ": " + std::strerror(errno), path,
               "check free space and permissions");
}

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// Opened per call rather than kept open: a recording may spool thousands of tensors.
File open_file(const std::string& path, const char* mode) {
  File f(std::fopen(path.c_str(), mode), &std::fclose);
  if (!f) throw io_error("cannot open", path);
  return f;
}

void write_bytes(const std::string& path, const char* mode, const void* data, size_t size) {
  File f = open_file(path, mode);
  // An empty tensor's data pointer may be null, which fwrite must not be given even for 0 bytes.
  if ((size > 0 && std::fwrite(data, 1, size, f.get()) != size) || std::fflush(f.get()) != 0)
    throw io_error("cannot write", path);
}

void write_data(const std::string& path, const at::Tensor& t) {
  write_bytes(path, "ab", t.data_ptr(), static_cast<size_t>(t.numel()) * t.element_size());
}

// "float32 2x3", as stats.csv writes them.
std::string described(at::ScalarType type, const std::vector<int64_t>& shape) {
  return dtype_name(type) + " " + shape_text(shape);
}

std::vector<int64_t> trailing(const std::vector<int64_t>& shape) {
  return {shape.begin() + 1, shape.end()};
}

}  // namespace

TensorSpool::TensorSpool(std::string path, Layout layout, std::string where)
    : path_(std::move(path)), layout_(layout), where_(std::move(where)) {}

void TensorSpool::append(const at::Tensor& tensor) {
  at::Tensor t = layout_ == Layout::npy ? npy_storable(tensor)
                                        : tensor.detach().to(at::kCPU).contiguous();
  if (!started_) {
    start(t);
  } else {
    check_fits(t);
    shape_[0] += t.size(0);
  }
  write_data(path_, t);
}

void TensorSpool::start(const at::Tensor& t) {
  dtype_ = t.scalar_type();
  shape_ = t.sizes().vec();
  make_directories(std::filesystem::path(path_).parent_path().string());
  std::string header;
  if (layout_ == Layout::npy) {
    std::vector<int64_t> widest = shape_;  // the longest dim-0 text the final header can need
    if (!widest.empty()) widest[0] = std::numeric_limits<int64_t>::max();
    header = npy_header(dtype_, widest, path_);
    header_size_ = header.size();
  }
  write_bytes(path_, "wb", header.data(), header.size());
  started_ = true;
}

void TensorSpool::check_fits(const at::Tensor& t) const {
  const std::string hint = "record without --batch-size, or with --reduce or --save none";
  if (shape_.empty() || t.dim() == 0)
    throw Error(Exit::model_failed, "cannot concatenate batches: a 0-dim tensor", where_, hint);
  if (t.scalar_type() != dtype_ || trailing(t.sizes().vec()) != trailing(shape_))
    throw Error(Exit::model_failed,
                "cannot concatenate batches: shapes differ (" + described(dtype_, shape_) + " then " +
                    described(t.scalar_type(), t.sizes().vec()) + ")",
                where_, hint);
}

void TensorSpool::finish() {
  if (!started_ || layout_ != Layout::npy) return;
  const std::string header = npy_header(dtype_, shape_, path_, header_size_);
  if (header.size() != header_size_)  // cannot happen: room was left for the widest dim 0
    throw Error(Exit::write_failed, "the .npy header outgrew its reserved space", path_);
  write_bytes(path_, "r+b", header.data(), header.size());
}

at::Tensor TensorSpool::take() {
  at::Tensor t = at::empty(shape_, at::TensorOptions().dtype(dtype_));
  {
    File f = open_file(path_, "rb");
    const size_t size = static_cast<size_t>(t.numel()) * t.element_size();
    if (std::fread(t.data_ptr(), 1, size, f.get()) != size) throw io_error("cannot read back", path_);
  }
  std::error_code ec;
  std::filesystem::remove(path_, ec);
  std::filesystem::remove(std::filesystem::path(path_).parent_path(), ec);  // fails unless empty
  started_ = false;
  return t;
}

}  // namespace modrec
