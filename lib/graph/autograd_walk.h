// Which call's output a tensor came from, told by autograd: the one place `modrec graph` reads
// autograd's graph (LibTorch-internal API: torch::autograd::Node and its edges).
#pragma once
#include <ATen/core/Tensor.h>

#include <memory>
#include <optional>
#include <vector>

#include "graph/data_flow.h"

namespace modrec {

class AutogradProducers {
 public:
  AutogradProducers();
  ~AutogradProducers();

  // From now on, t's gradient edge (its grad_fn's output slot, or a leaf's accumulator) stands
  // for `end`. False when t has none (it does not require grad).
  bool add(const at::Tensor& t, FlowEnd end);
  // The ends t was computed from: t's own, or those reached by walking back from its gradient
  // edge through the nodes of ops that are no end's (folding them); nullopt when t has no
  // gradient edge.
  std::optional<std::vector<FlowEnd>> sources(const at::Tensor& t) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace modrec
