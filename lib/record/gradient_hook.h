// Calls back with d(loss)/d(t) for the value t holds now, whatever in-place ops do to t later.
#pragma once
#include <ATen/core/Tensor.h>

#include <functional>

namespace modrec {

using GradientCallback = std::function<void(const at::Tensor& grad)>;

// t must require grad. Attaches to the autograd node that produced t (a leaf: to t itself).
void on_gradient(const at::Tensor& t, GradientCallback callback);

}  // namespace modrec
