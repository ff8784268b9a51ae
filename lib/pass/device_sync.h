// Waiting for the GPU. CUDA kernels run after the call that queued them returns, so a pass's time
// (the `timing:` debug lines that scripts/bench reads) is taken once the device is done.
#pragma once
#include <ATen/core/ivalue.h>

#include <vector>

namespace modrec {

// Waits for the work queued on the GPU when the first tensor of `inputs` lives there; on the CPU
// it returns at once (and never starts CUDA).
void wait_for_device(const std::vector<c10::IValue>& inputs);

}  // namespace modrec
