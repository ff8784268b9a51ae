// watch --save-model: the trained weights in a TorchScript file torch.jit.load reads.
#pragma once
#include <torch/script.h>

#include <string>

namespace modrec {

// `as_loaded` is the module as loaded, its graphs free of modrec's operators, sharing its tensors
// with the instrumented module that trained (Module::clone(inplace), script_model.h). Its
// tensors are replaced by CPU copies of their trained values (tensors shared between attributes
// stay shared), as a fresh load of the file would hold them, and it is saved in `training` mode
// with torch::jit::Module::save to a temporary name and renamed to `out` (never half-written).
// Throws Error(write_failed) naming `out` when it cannot be written.
void save_trained_model(torch::jit::Module as_loaded, bool training, const std::string& out);

}  // namespace modrec
