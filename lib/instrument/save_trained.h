// watch --save-model: the trained weights in a TorchScript file torch.jit.load reads.
#pragma once
#include <torch/script.h>

#include <string>

namespace modrec {

// The instrumented module's graphs call modrec's hooks, so the file is a fresh load of
// `model_path` with the trained parameters and buffers copied in, saved with
// torch::jit::Module::save to a temporary name and renamed to `out` (never half-written).
// Throws Error(write_failed) naming `out` when it cannot be written.
void save_trained_model(const torch::jit::Module& trained, const std::string& model_path,
                        const std::string& out);

}  // namespace modrec
