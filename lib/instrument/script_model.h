// A TorchScript module made observable: its graphs rewritten so that every module call reaches a
// CallHooks (jit_calls.h).
#pragma once
#include <torch/script.h>

#include <optional>
#include <vector>

#include "instrument/instrumented_model.h"
#include "instrument/jit_calls.h"
#include "instrument/module_index.h"

namespace modrec {

class ScriptModel : public InstrumentedModel {
 public:
  // Instruments `module` in place; it must not have run forward yet.
  explicit ScriptModel(torch::jit::Module module, InstrumentOptions options = {});

  torch::jit::Module& module() { return module_; }

  const ModuleTree& tree() const override { return index_.tree; }
  std::vector<c10::Argument> forward_arguments() const override;
  c10::IValue forward(std::vector<c10::IValue> inputs, CallHooks& hooks) override;
  void clear_gradients() override;
  std::vector<std::pair<std::string, at::Tensor>> own_parameters(int module) const override;
  std::vector<at::Tensor> parameters() const override;
  std::vector<at::Tensor> state_tensors() const override;
  // In static graph order (loop bodies once, both branches of an if).
  CallTrace static_trace() const override;
  void to(const at::Device& device) override;
  void train(bool on) override { module_.train(on); }
  void save(const std::string& out) override;

 private:
  torch::jit::Module module_;
  ModuleIndex index_;
  // The submodule of each of the tree's modules (the tree's order): own_parameters is asked for
  // every recorded module at every batch and watch step.
  std::vector<std::optional<torch::jit::Module>> by_index_;
  // With InstrumentOptions::savable: the module as loaded, its graphs not instrumented, sharing
  // module_'s tensors (so training changes them too): what save() writes.
  std::optional<torch::jit::Module> as_loaded_;
};

}  // namespace modrec
