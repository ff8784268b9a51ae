// The callback side of instrumentation: what an instrumented model reports while it runs.
#pragma once
#include <ATen/core/ivalue.h>

#include <vector>

namespace modrec {

// Receives the root call and every submodule call, in call order, on the calling thread.
// `module` is an index into the model's ModuleTree.
class CallHooks {
 public:
  virtual ~CallHooks() = default;
  virtual void enter(int module, const std::vector<c10::IValue>& args) = 0;  // args without self
  // Returns what the caller continues with: `output` itself, or (for record's grad_output) the
  // same structure with its tensors routed through hooked clones.
  virtual c10::IValue leave(int module, const c10::IValue& output) = 0;
  // With InstrumentOptions::route_tensor_args: each Tensor argument passes through here and the
  // call sees what this returns (a hooked clone gives the call's module-local input gradient).
  virtual at::Tensor route(int module, size_t argno, const at::Tensor& x) { return x; }
};

}  // namespace modrec
