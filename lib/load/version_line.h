// What --version says beside the versions (load/version.h): whether LibTorch can use CUDA here,
// which needs LibTorch's CUDA backend loaded (load/operator_libraries.h) to know.
#pragma once
#include <string>

namespace modrec {

// Whether LibTorch can use CUDA here: "CUDA 13.0: 1 GPU", "CUDA 13.0: no GPU visible" or
// "CUDA: not in this torch build" (a CPU-only torch); loads the CUDA backend to know
// (load/operator_libraries.h), or says why it cannot be loaded.
std::string cuda_status();
// "modrec X.Y.Z (LibTorch A.B.C, <cuda_status>)", as --version prints it.
std::string version_line();

}  // namespace modrec
