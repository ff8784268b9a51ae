// Feeds a tensor of any supported dtype into RunningStats.
#pragma once
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "stats/running_stats.h"

namespace modrec {

// half and bfloat16 are widened to float first (exactly); complex dtypes are rejected.
void add_tensor(RunningStats& stats, const at::Tensor& t);

// What record keeps of a tensor when it does not keep the tensor.
struct TensorSummary {
  RunningStats stats;
  std::vector<int64_t> shape;
  at::ScalarType dtype = at::ScalarType::Undefined;
};

// On the CPU through RunningStats' kernels; a tensor on another device (--device cuda) is reduced
// there by summarize_on_device.
TensorSummary summarize_tensor(const at::Tensor& t);

// summarize_tensor(after - before), without making the difference: on the CPU, for float and
// double tensors of one dtype and shape, it is formed and summarized a piece at a time (the same
// values and result, to the bit, as at::sub's); elsewhere through at::sub.
TensorSummary summarize_difference(const at::Tensor& after, const at::Tensor& before);

// The same statistics computed with ATen reductions where the tensor is, so that only about 75
// numbers (counts, moments, extremes, the histogram) are copied back, once. Moments equal the
// CPU kernels' to rounding (a different summation order), counts and histogram exactly.
TensorSummary summarize_on_device(const at::Tensor& t);

// How many threads summarize_tensor splits a large tensor over (util/parallel_parts.h): as many as
// LibTorch's intra-op threads.
int statistics_threads();

}  // namespace modrec
