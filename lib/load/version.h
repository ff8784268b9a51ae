// Which modrec and which LibTorch this is: --version (load/version_line.h), manifest.json, and
// error messages about files a LibTorch cannot read.
#pragma once
#include <string>

namespace modrec {

std::string modrec_version();  // "X.Y.Z"
// "A.B.C": the LibTorch modrec was built with, which decides the files and operators it can read.
std::string libtorch_version();

}  // namespace modrec
