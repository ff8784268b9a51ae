// The backward pass after a forward (record, summary's FLOPs, watch's loss): from a scalar loss
// of the model's first output, or from a given gradient of that output (--grad FILE).
#pragma once
#include <ATen/core/ivalue.h>

#include <string>

#include "pass/loss.h"

namespace modrec {

struct BackwardOptions {
  Loss loss = Loss::sum;  // when no seed is given
  at::Tensor seed;        // d(loss)/d(first output), or undefined
  std::string seed_file;  // named in errors
  // What to do when the model's own backward fails, in the caller's flags (record's
  // --capture output; summary's table without the flops column).
  std::string forward_only_hint = "record the forward pass only (--capture output)";
};

// The first tensor (depth-first) of a model's output; Error(model_failed) when it has none.
at::Tensor first_output(const c10::IValue& output);

// Whether a backward can run from `output`: its first tensor (depth-first) requires grad. A
// statically quantized program's (an integer tensor lies on every path), a compiled package's
// and an output without tensors have none.
bool has_gradient(const c10::IValue& output);

// The first output tensor (depth-first) must require grad; a seed must have its shape. Takes
// `output` to let it go before the backward (pass it moved: what the caller holds stays alive).
void run_backward(c10::IValue output, const BackwardOptions& options);

// Reads --grad FILE: exactly one tensor.
at::Tensor read_gradient_seed(const std::string& path);

}  // namespace modrec
