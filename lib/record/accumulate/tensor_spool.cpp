#include "record/accumulate/tensor_spool.h"

#include "files/scalar_type.h"
#include "tensor_files/npy_stream.h"
#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

// "float32 2x3", as stats.csv writes them.
std::string described(at::ScalarType type, const std::vector<int64_t>& shape) {
  return dtype_name(type) + " " + shape_text(shape);
}

std::vector<int64_t> trailing(const std::vector<int64_t>& shape) {
  return {shape.begin() + 1, shape.end()};
}

}  // namespace

void TensorSpool::append(const BatchFileTensor& t) {
  if (batches_.empty()) {
    shape_ = t.shape;
  } else {
    check_fits(t);
    shape_[0] += t.shape[0];
  }
  batches_.push_back(t);
}

void TensorSpool::check_fits(const BatchFileTensor& t) const {
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
  NpyStream out(path, batches_.front().dtype, shape_);
  for (const BatchFileTensor& b : batches_) out.append(take_stored(b));
  out.close();
}

at::Tensor TensorSpool::take() {
  at::Tensor t = at::empty(shape_, at::TensorOptions().dtype(batches_.front().dtype));
  char* at = static_cast<char*>(t.data_ptr());
  for (const BatchFileTensor& b : batches_) {
    take_stored(b, at);
    at += b.bytes();
  }
  return t;
}

}  // namespace modrec
