// "modrec X.Y.Z (LibTorch A.B.C)", as --version prints it.
#pragma once
#include <string>

namespace modrec {
std::string version_line();
std::string modrec_version();
}  // namespace modrec
