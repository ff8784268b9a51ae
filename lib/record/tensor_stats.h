// Feeds a tensor of any supported dtype into RunningStats.
#pragma once
#include <ATen/core/Tensor.h>

#include "stats/running_stats.h"

namespace modrec {

// half and bfloat16 are widened to float first (exactly); complex dtypes are rejected.
void add_tensor(RunningStats& stats, const at::Tensor& t);

}  // namespace modrec
