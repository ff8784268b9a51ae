// Which modrec and which LibTorch this is: --version, manifest.json, and error messages about
// files a LibTorch cannot read.
#pragma once
#include <string>

namespace modrec {

std::string modrec_version();  // "X.Y.Z"
// "A.B.C": the LibTorch modrec was built with, which decides the files and operators it can read.
std::string libtorch_version();
// Whether LibTorch can use CUDA here: "CUDA 13.0: 1 GPU", "CUDA 13.0: no GPU visible" or
// "CUDA: not in this torch build" (a CPU-only torch); loads the CUDA backend to know
// (load/operator_libraries.h), or says why it cannot be loaded.
std::string cuda_status();
// "modrec X.Y.Z (LibTorch A.B.C, <cuda_status>)", as --version prints it.
std::string version_line();

}  // namespace modrec
