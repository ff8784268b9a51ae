#include "record/batches.h"

#include "util/error.h"

namespace modrec {

std::vector<std::vector<c10::IValue>> split_batches(const std::vector<c10::IValue>& inputs,
                                                    int64_t size) {
  if (size == 0) return {inputs};
  int64_t n = -1;
  for (const auto& v : inputs) {
    if (!v.isTensor() || v.toTensor().dim() == 0 || (n >= 0 && v.toTensor().size(0) != n))
      throw Error(Exit::usage, "inputs must be tensors sharing their first dimension to be batched",
                  "--batch-size", "drop --batch-size or give inputs with equal dim 0");
    n = v.toTensor().size(0);
  }
  std::vector<std::vector<c10::IValue>> out;
  for (int64_t start = 0; start < n; start += size) {
    std::vector<c10::IValue> batch;
    for (const auto& v : inputs)
      batch.emplace_back(v.toTensor().narrow(0, start, std::min(size, n - start)));
    out.push_back(std::move(batch));
  }
  return out;
}

}  // namespace modrec
