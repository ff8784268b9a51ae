// --batch-size: the model's inputs cut along dim 0 into batches that are run one after another.
#pragma once
#include <ATen/core/ivalue.h>

#include <vector>

namespace modrec {

// Every input split along dim 0 into batches of `size` (0: one batch holding everything); the
// last batch may be smaller. Inputs must be tensors sharing their first dimension (usage Error).
std::vector<std::vector<c10::IValue>> split_batches(const std::vector<c10::IValue>& inputs,
                                                    int64_t size);

}  // namespace modrec
