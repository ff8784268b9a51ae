// Scripted layers made to take the path eager PyTorch takes while it is observed.
//
// Eager nn.TransformerEncoderLayer leaves its inference fast path (one fused
// _transformer_encoder_layer_fwd, no submodule calls) whenever forward hooks are attached to it or
// its children, which is how torchinfo and every Python recorder observe it: they see
// self_attn, linear1, norm1... as calls. Its scripted twin has no hooks to look at and takes the
// fast path under no-grad, so its submodules would never be called. modrec's instrumentation is
// the scripted form of those hooks, so it fails the fast path's own test the way hooks do.
#pragma once
#include <torch/script.h>

#include <string>
#include <vector>

namespace modrec {

// Sets activation_relu_or_gelu to 0 on every TransformerEncoderLayer under `root`. The attribute
// only gates the fast path (the slow path calls self.activation), so results are what eager
// PyTorch with hooks computes. Returns the paths of the layers changed.
std::vector<std::string> leave_fast_paths(torch::jit::Module& root);

}  // namespace modrec
