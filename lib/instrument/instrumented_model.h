// A loaded model made observable, whatever its file format: its module tree, and forward passes
// in which every module call reaches a CallHooks. open_model.h makes one per format from what
// load/<format>/ read and checked: a TorchScript file's (.pt) ScriptModel, a torch.export
// archive's (.pt2) ExportedModel, and for compiled code, whose module calls ran fused, a
// RootOnlyModel (an AOTInductor package's CompiledPackage; an ExecuTorch program's (.pte), its
// calls told after the run from its ETRecord). A checkpoint has no forward and is none of these
// (checkpoint/). Everything downstream (runs, summary rows, recording, training) sees only this
// interface.
#pragma once
#include <ATen/core/function_schema.h>
#include <ATen/core/ivalue.h>

#include <string>
#include <utility>
#include <vector>

#include "instrument/call_hooks.h"
#include "model/call_trace.h"
#include "util/error.h"

namespace modrec {

class InstrumentedModel {
 public:
  virtual ~InstrumentedModel() = default;

  virtual const ModuleTree& tree() const = 0;

  // Forward's declared arguments, self left out: what --input and --arg bind to
  // (arguments/forward_schema.h).
  virtual std::vector<c10::Argument> forward_arguments() const = 0;

  // One forward pass; `hooks` sees the root call (module 0) and every submodule call.
  virtual c10::IValue forward(std::vector<c10::IValue> inputs, CallHooks& hooks) = 0;

  // Forgets every parameter's .grad, so the next backward's are the only ones.
  virtual void clear_gradients() = 0;

  // The module's own parameters (not its children's), by name, in definition order.
  virtual std::vector<std::pair<std::string, at::Tensor>> own_parameters(int module) const = 0;
  // Every parameter of the model, once each.
  virtual std::vector<at::Tensor> parameters() const = 0;
  // Every tensor the model holds between passes (parameters, buffers, stored constants), once
  // each: what a pass's memory figures leave out (memory/memory_meter.h).
  virtual std::vector<at::Tensor> state_tensors() const { return parameters(); }

  // The calls forward makes, without shapes (summary without an input).
  virtual CallTrace static_trace() const = 0;

  // Moves the parameters and buffers to `device`, and the tensors forward makes: the devices its
  // code names (a trace's or an export's fixed device="cpu") are `device` (jit_calls.h).
  virtual void to(const at::Device& device) = 0;
  // Train or eval mode, as nn.Module.train(on).
  virtual void train(bool on) = 0;

  // Writes the model with its parameters and buffers as they are now, and its mode, in its file
  // format (watch --save-model). Only a model opened with InstrumentOptions::savable can.
  virtual void save(const std::string& out) {
    throw Error(Exit::internal, "the model was not opened to be saved", out);
  }
};

}  // namespace modrec
