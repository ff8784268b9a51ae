#include "load/version.h"

#include <torch/version.h>

namespace modrec {

std::string modrec_version() { return MODREC_VERSION; }

std::string libtorch_version() {
  return std::to_string(TORCH_VERSION_MAJOR) + "." + std::to_string(TORCH_VERSION_MINOR) + "." +
         std::to_string(TORCH_VERSION_PATCH);
}

}  // namespace modrec
