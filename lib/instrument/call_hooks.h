// The callback side of instrumentation: what an instrumented model (instrumented_model.h) reports
// while it runs, the same for every format. A TorchScript file (.pt) and a torch.export archive
// (.pt2) report every module call as it runs; compiled code (an AOTInductor package, an ExecuTorch
// program, .pte) its root alone, and an ExecuTorch program given its ETRecord its module calls
// too, after the run, without their arguments. What only one format can say of a call (a .pt2
// archive's gradients and signatures it cannot tell) is a CallCaveats, through one callback.
#pragma once
#include <ATen/core/ivalue.h>

#include <optional>
#include <string>
#include <vector>

namespace modrec {

// How a model is opened to run, whatever its format: what it reports besides enter and leave,
// and whether it may be saved. What only some formats read (an ETRecord) is FormatOptions
// (load/model_options.h).
struct InstrumentOptions {
  bool route_tensor_args = false;  // each Tensor argument of a call passes through route()
  // The model will be saved once trained (InstrumentedModel::save, watch --save-model): the load
  // keeps what saving needs, and refuses a format modrec cannot write (open_model.h).
  bool savable = false;
};

// What a model tells of a call besides its arguments and result, where eager forward hooks would
// see the call otherwise: reported by CallHooks::caveats when a field is set. Each field names
// the format whose runner sets it (today only a .pt2 archive's, instrument/pt2/graph_runner.cpp);
// a collector reads those it needs. A new format's caveat is a field here, not a new callback.
struct CallCaveats {
  // The model cannot give the call's input gradients (grad_input) or output gradients
  // (grad_output) as eager hooks would see them, for the reason given (empty: it can): a .pt2
  // archive's call whose argument and result are one graph value (pt2/untold_gradients.h), or
  // that is given one tensor several times.
  std::string untold_inputs, untold_outputs;
  // Eager forward was given only the first of its args by position and the rest by keyword (a
  // .pt2 archive's call whose signature says so): those first ones, what a forward hook's
  // `inputs` holds, by which torchinfo sizes the call's input. The call's arguments are still all
  // of enter's, as a forward pre-hook with_kwargs sees them.
  std::optional<std::vector<c10::IValue>> positional;
  // The file does not keep which of the call's arguments eager forward was given by keyword
  // (keywords_untold), or its result's structure (structure_untold): a .pt2 archive's call whose
  // signature it lacks. Its arguments and result are then its tensors, flat.
  bool keywords_untold = false;
  bool structure_untold = false;

  bool any() const {
    return !untold_inputs.empty() || !untold_outputs.empty() || positional || keywords_untold ||
           structure_untold;
  }
};

// Receives the root call and every submodule call, in call order, on the calling thread.
// `call` numbers the calls of one forward pass from 0 (the root) in the order they start: the
// index of the call in the pass's CallTrace. `module` is an index into the model's ModuleTree.
class CallHooks {
 public:
  virtual ~CallHooks() = default;
  // args without self
  virtual void enter(int call, int module, const std::vector<c10::IValue>& args) = 0;
  // Returns what the caller continues with: `output` itself, or (for record's grad_output) the
  // same structure with its tensors routed through hooked clones.
  virtual c10::IValue leave(int call, int module, const c10::IValue& output) = 0;
  // With InstrumentOptions::route_tensor_args: each Tensor argument of `call` passes through here
  // and the call sees what this returns (a hooked clone gives its module-local input gradient).
  virtual at::Tensor route(int call, size_t argno, const at::Tensor& x) { return x; }
  // Right after enter(call), before its route()s, once, when the model has any caveat about it.
  virtual void caveats(int call, const CallCaveats& told) {}
};

}  // namespace modrec
