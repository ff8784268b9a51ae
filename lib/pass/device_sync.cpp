#include "pass/device_sync.h"

#include <torch/cuda.h>

namespace modrec {

void wait_for_device(const std::vector<c10::IValue>& inputs) {
  for (const auto& v : inputs) {
    if (!v.isTensor()) continue;
    if (v.toTensor().is_cuda()) torch::cuda::synchronize();
    return;
  }
}

}  // namespace modrec
