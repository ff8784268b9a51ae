// A torch.export program made observable: its module tree from the archive, its forward run by
// interpreting the graph node by node (graph_runner.h), reporting each module call.
#pragma once
#include "instrument/instrumented_model.h"
#include "instrument/pt2/graph_runner.h"
#include "load/pt2/exported_archive.h"

namespace modrec {

class ExportedModel : public InstrumentedModel {
 public:
  ExportedModel(pt2::ExportedArchive archive, InstrumentOptions options = {});

  const ModuleTree& tree() const override { return tree_; }
  // The program's user inputs, as tensors: torch.export froze its non-tensor arguments.
  std::vector<c10::Argument> forward_arguments() const override;
  c10::IValue forward(std::vector<c10::IValue> inputs, CallHooks& hooks) override;
  void clear_gradients() override;
  std::vector<std::pair<std::string, at::Tensor>> own_parameters(int module) const override;
  std::vector<at::Tensor> parameters() const override;
  std::vector<at::Tensor> state_tensors() const override;
  // Every module once, in named_modules() order: what torchinfo lists without an input.
  CallTrace static_trace() const override { return call_per_module(tree_); }
  void to(const at::Device& device) override;
  // The graph was traced in one mode (batch_norm's `training` argument is frozen in it): nothing
  // to switch; train mode is warned about.
  void train(bool on) override;

 private:
  void warn_untyped() const;

  pt2::ExportedArchive archive_;
  ModuleTree tree_;
  GraphRunner runner_;
};

}  // namespace modrec
