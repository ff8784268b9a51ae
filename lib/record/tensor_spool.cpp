#include "record/tensor_spool.h"

#include <cstdio>
#include <memory>

#include "tensors/dtype.h"
#include "tensors/npy.h"
#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

File open_file(const std::string& path, const char* mode) {
  File f(std::fopen(path.c_str(), mode), &std::fclose);
  if (!f) throw write_error("cannot open", path);
  return f;
}

// "float32 2x3", as stats.csv writes them.
std::string described(at::ScalarType type, const std::vector<int64_t>& shape) {
  return dtype_name(type) + " " + shape_text(shape);
}

std::vector<int64_t> trailing(const std::vector<int64_t>& shape) {
  return {shape.begin() + 1, shape.end()};
}

}  // namespace

void TensorSpool::append(const StoredTensor& t) {
  if (batches_.empty()) {
    shape_ = t.shape;
  } else {
    check_fits(t);
    shape_[0] += t.shape[0];
  }
  batches_.push_back(t);
}

void TensorSpool::check_fits(const StoredTensor& t) const {
  const std::string hint = "record without --batch-size, or with --reduce or --save none";
  const at::ScalarType dtype = batches_.front().dtype;
  if (shape_.empty() || t.shape.empty())
    throw Error(Exit::model_failed, "cannot concatenate batches: a 0-dim tensor", where_, hint);
  if (t.dtype != dtype || trailing(t.shape) != trailing(shape_))
    throw Error(Exit::model_failed,
                "cannot concatenate batches: shapes differ (" + described(dtype, shape_) +
                    " then " + described(t.dtype, t.shape) + ")",
                where_, hint);
}

void TensorSpool::write_npy(const std::string& path) {
  if (batches_.empty()) return;
  File f = open_file(path, "wb");
  const std::string header = npy_header(batches_.front().dtype, shape_, path);
  bool ok = std::fwrite(header.data(), 1, header.size(), f.get()) == header.size();
  for (const StoredTensor& b : batches_) {
    const at::Tensor t = npy_storable(take_stored(b));
    const size_t size = static_cast<size_t>(t.numel()) * t.element_size();
    // An empty tensor's data pointer may be null, which fwrite must not be given even for 0 bytes.
    ok = ok && (size == 0 || std::fwrite(t.data_ptr(), 1, size, f.get()) == size);
  }
  if (!ok || std::fflush(f.get()) != 0) throw write_error("cannot write", path);
}

at::Tensor TensorSpool::take() {
  at::Tensor t = at::empty(shape_, at::TensorOptions().dtype(batches_.front().dtype));
  char* at = static_cast<char*>(t.data_ptr());
  for (const StoredTensor& b : batches_) {
    take_stored(b, at);
    at += b.bytes();
  }
  return t;
}

}  // namespace modrec
