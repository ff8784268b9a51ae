#include "jobs/version.h"

#include "load/load_model.h"

namespace modrec {

std::string modrec_version() { return MODREC_VERSION; }
std::string version_line() {
  return "modrec " + modrec_version() + " (LibTorch " + libtorch_version() + ")";
}

}  // namespace modrec
