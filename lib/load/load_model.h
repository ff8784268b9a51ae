// Loading a TorchScript model file, with every failure turned into one clear modrec error.
#pragma once
#include <string>

#include <torch/csrc/jit/api/module.h>

#include "files/file_kind.h"
#include "load/model_options.h"

namespace modrec {

// Loads `file` (inspect_file's of `path`, a TorchScript archive) on the CPU through the file it
// opened.
// Weights::read verifies every entry's CRC-32 first; Weights::meta gives meta tensors of the stored
// sizes, strides and dtypes, its data/ records never read (nor their CRC-32 checked: nothing
// taken from the file comes from them), every other entry checked. Throws Error(Exit::bad_input)
// saying what the file is and how to make a TorchScript file.
torch::jit::Module load_model(const std::string& path, const FileInfo& file, Weights weights);
// inspect_file(path), then its weights read.
torch::jit::Module load_model(const std::string& path);

}  // namespace modrec
