// The ExecuTorch runtime, loaded on demand for a .pte program: modrec's shim
// (libmodrec_executorch.so beside the modrec binary, built from
// instrument/executorch/executorch_shim.cpp; its C interface: executorch_abi.h) after the runtime
// libraries of the executorch installed beside the torch modrec runs on
// (site-packages/executorch/lib), through load/shared_libraries.h, where modrec's every dlopen
// is. What runs the program (instrument/executorch/) gets the shim's functions, looked up here.
#pragma once
#include <string>

#include "load/executorch/executorch_abi.h"

namespace modrec {

// The shim's functions (executorch_abi.h).
struct ExecuTorchShim {
  ModrecEtSetLog set_log;
  ModrecEtOpen open;
  ModrecEtDescribe describe;
  ModrecEtRun run;
  ModrecEtClose close;
};

// Loads the shim and the runtime, once, and looks up the shim's functions. Error(bad_input) naming
// `model` when executorch is not installed beside torch, when this modrec was built without the
// shim, when either cannot be loaded, or when the shim lacks a function.
const ExecuTorchShim& load_executorch_shim(const std::string& model);

}  // namespace modrec
