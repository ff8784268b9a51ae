// The ExecuTorch runtime, loaded on demand for a .pte program: modrec's shim
// (libmodrec_executorch.so beside the modrec binary: instrument/executorch/executorch_abi.h) after
// the runtime libraries of the executorch installed beside the torch modrec runs on
// (site-packages/executorch/lib). Defined in operator_libraries.cpp, where modrec's every dlopen
// is.
#pragma once
#include <string>

namespace modrec {

// Loads the shim and the runtime, once; the shim's dlopen handle. Error(bad_input) naming `model`
// when executorch is not installed beside torch, when this modrec was built without the shim, or
// when either cannot be loaded.
void* load_executorch_shim(const std::string& model);

}  // namespace modrec
