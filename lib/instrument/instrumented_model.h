// A loaded TorchScript module made observable: every module call reaches a CallHooks.
#pragma once
#include <torch/script.h>

#include "instrument/call_hooks.h"
#include "instrument/jit_calls.h"
#include "instrument/module_index.h"
#include "model/call_trace.h"

namespace modrec {

class InstrumentedModel {
 public:
  // Instruments `module` in place; it must not have run forward yet.
  explicit InstrumentedModel(torch::jit::Module module, InstrumentOptions options = {});

  const ModuleTree& tree() const { return index_.tree; }
  torch::jit::Module& module() { return module_; }

  // One forward pass; `hooks` sees the root call (module 0) and every submodule call.
  c10::IValue forward(std::vector<c10::IValue> inputs, CallHooks& hooks);

  // Forgets every parameter's .grad, so the next backward's are the only ones.
  void clear_gradients();

  // The module's own parameters (not its children's), by name, in definition order.
  std::vector<std::pair<std::string, at::Tensor>> own_parameters(int module) const;

  // The calls forward makes in static graph order, without shapes (summary without an input).
  CallTrace static_trace() const;

 private:
  torch::jit::Module module_;
  ModuleIndex index_;
};

}  // namespace modrec
