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
  std::string dtype;
};

TensorSummary summarize_tensor(const at::Tensor& t);

// How many threads summarize_tensor splits a large tensor over: LibTorch's intra-op threads when
// this library was built with OpenMP (see lib/CMakeLists.txt), else 1.
int statistics_threads();

}  // namespace modrec
