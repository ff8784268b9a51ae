#include "record/tensor_stats.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <atomic>

#include "tensors/dtype.h"
#include "util/error.h"

namespace modrec {
namespace {

// Below this many elements a tensor is not worth splitting across threads.
constexpr int64_t kParallelGrain = 1 << 16;

// Statistics are mergeable, so large tensors are split over LibTorch's intra-op threads (idle
// while a hook runs) and the parts merged in a fixed order: the result does not depend on timing.
template <class T>
void add_as(RunningStats& stats, const at::Tensor& t) {
  const T* data = t.data_ptr<T>();
  const int64_t n = t.numel();
  const int64_t parts = std::min<int64_t>(at::get_num_threads(), n / kParallelGrain);
  if (parts < 2) {
    stats.add(data, static_cast<size_t>(n));
    return;
  }
  std::vector<RunningStats> partial(static_cast<size_t>(parts));
  at::parallel_for(0, parts, 1, [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p) {
      const int64_t lo = n * p / parts, hi = n * (p + 1) / parts;
      partial[p].add(data + lo, static_cast<size_t>(hi - lo));
    }
  });
  for (const auto& p : partial) stats.merge(p);
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

TensorSummary summarize_tensor(const at::Tensor& t) {
  TensorSummary s{RunningStats(), t.sizes().vec(), dtype_name(t.scalar_type())};
  add_tensor(s.stats, t);
  return s;
}

int statistics_threads() {
  std::atomic<int> parts{0};
  at::parallel_for(0, at::get_num_threads(), 1, [&](int64_t, int64_t) { ++parts; });
  return parts;
}

}  // namespace modrec
