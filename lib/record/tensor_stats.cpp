#include "record/tensor_stats.h"

#include <ATen/ATen.h>

#include "util/error.h"

namespace modrec {
namespace {

template <class T>
void add_as(RunningStats& stats, const at::Tensor& t) {
  stats.add(t.data_ptr<T>(), static_cast<size_t>(t.numel()));
}

}  // namespace

void add_tensor(RunningStats& stats, const at::Tensor& tensor) {
  at::Tensor t = tensor.detach().cpu().contiguous();
  switch (t.scalar_type()) {
    case at::kFloat: return add_as<float>(stats, t);
    case at::kDouble: return add_as<double>(stats, t);
    case at::kLong: return add_as<int64_t>(stats, t);
    case at::kInt: return add_as<int32_t>(stats, t);
    case at::kShort: return add_as<int16_t>(stats, t);
    case at::kChar: return add_as<int8_t>(stats, t);
    case at::kByte: return add_as<uint8_t>(stats, t);
    case at::kBool: return add_as<bool>(stats, t);
    case at::kHalf:
    case at::kBFloat16: return add_as<float>(stats, t.to(at::kFloat));
    default:
      throw Error(Exit::model_failed,
                  std::string("statistics of dtype ") + c10::toString(t.scalar_type()) +
                      " are not supported",
                  "record", "record real-valued layers only");
  }
}

}  // namespace modrec
