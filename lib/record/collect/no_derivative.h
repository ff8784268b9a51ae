// Operators without a derivative (LibTorch has no autograd kernel for them: its autograd fallback
// runs them, warns, and passes no gradient back: quantized::linear_dynamic, aten::quantized_lstm)
// and the gradients they keep from arriving. The only user of the dispatcher's kernel table,
// RecordFunction and autograd's node types for this, in no_derivative.cpp.
#pragma once
#include <ATen/core/Tensor.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "record/collect/gradient_hook.h"

namespace modrec {

// While alive, notes which operators without a derivative this thread runs, and the autograd node
// each one makes (by the node's sequence number). Construct it before the forward pass whose
// gradients are to be checked; until then no callback is registered.
class NoDerivativeOps {
 public:
  NoDerivativeOps();
  ~NoDerivativeOps();
  NoDerivativeOps(const NoDerivativeOps&) = delete;
  NoDerivativeOps& operator=(const NoDerivativeOps&) = delete;

  // For each edge: the operators without a derivative that the gradient flowing back from `root`
  // (the tensor backward starts from) passes through on some way to it, sorted; empty when every
  // way is clear (or none leads there). A gradient with one such way would be missing that way's
  // part: it is no gradient of the loss.
  std::vector<std::vector<std::string>> blocking(const at::Tensor& root,
                                                 const std::vector<const GradientEdge*>& edges);

  struct State;

 private:
  std::unique_ptr<State> state_;
};

// Parameters whose gradient would pass through operators without a derivative, by tensor, with
// those operators.
using BlockedParameters = std::map<const c10::TensorImpl*, std::vector<std::string>>;

// Of `params` (leaves; those not requiring grad are skipped), the ones blocked on their way back
// from `root`.
BlockedParameters blocked_parameters(NoDerivativeOps& ops, const at::Tensor& root,
                                     const std::vector<at::Tensor>& params);

}  // namespace modrec
