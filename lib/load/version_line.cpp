#include "load/version_line.h"

#include <ATen/detail/CUDAHooksInterface.h>

#include "load/operator_libraries.h"
#include "load/version.h"
#include "util/error.h"

namespace modrec {

std::string cuda_status() {
  if (auto why = load_cuda_backend()) return "CUDA: cannot be loaded (" + first_line(*why) + ")";
  const auto& cuda = at::detail::getCUDAHooks();
  if (!cuda.isBuilt()) return "CUDA: not in this torch build";
  const long runtime = cuda.versionCUDART();  // e.g. 13000 for 13.0
  const std::string version =
      "CUDA " + std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
  if (!cuda.isAvailable()) return version + ": no GPU visible";
  const int gpus = cuda.deviceCount();
  return version + ": " + std::to_string(gpus) + (gpus == 1 ? " GPU" : " GPUs");
}

std::string version_line() {
  return "modrec " + modrec_version() + " (LibTorch " + libtorch_version() + ", " + cuda_status() +
         ")";
}

}  // namespace modrec
