// Calls back with d(loss)/d(t) for the value t holds now, whatever in-place ops do to t later.
#pragma once
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <memory>

namespace modrec {

using GradientCallback = std::function<void(const at::Tensor& grad)>;

// Where t's gradient enters autograd's graph: the node that produced t (a leaf's accumulator) and
// t's slot among its outputs. The node is held (its address stays its own while the edge lives).
struct GradientEdge {
  std::shared_ptr<const void> node;  // a torch::autograd::Node
  uint32_t slot = 0;
};

// t must require grad. Attaches to the autograd node that produced t (a leaf: to t itself);
// returns t's gradient edge.
GradientEdge on_gradient(const at::Tensor& t, GradientCallback callback);

// t's gradient edge (t must require grad; a leaf's: its gradient accumulator), with no hook.
GradientEdge gradient_edge(const at::Tensor& t);

// A mark on this thread's autograd clock: nodes created later have sequence numbers >= it.
uint64_t autograd_clock();

// Whether on_gradient(t) would see only the gradient of uses of t still to come: t's node was
// created since `clock` (t is not an older tensor passed through), t is no view (an in-place op
// on a view reroutes the gradient around the view's node), and nothing holds that node but t
// itself (no live consumer yet, no other output of the same node).
bool unconsumed_since(const at::Tensor& t, uint64_t clock);

}  // namespace modrec
