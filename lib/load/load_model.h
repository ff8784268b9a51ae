// Loading a TorchScript model file, with every failure turned into one clear modrec error.
#pragma once
#include <string>

#include <torch/csrc/jit/api/module.h>

namespace modrec {

// Classifies the file, verifies the archive's CRC-32 checksums, then torch::jit::load on CPU.
// Throws Error(Exit::bad_input) saying what the file is and how to make a TorchScript file.
torch::jit::Module load_model(const std::string& path);

}  // namespace modrec
