// A model whose one observable call is its root: compiled code (an AOTInductor package, an
// ExecuTorch program) runs as one piece and reports no module call, unless what ran can be told
// after (report_calls). Its inputs and outputs are
// the root's; it has no trainable parameter, and runs on the device it was compiled for.
#pragma once
#include <string>
#include <vector>

#include "instrument/instrumented_model.h"

namespace modrec {

class RootOnlyModel : public InstrumentedModel {
 public:
  // `path` names the file in messages; `what` the kind ("an AOTInductor package"); `type` the
  // root's class in tables.
  RootOnlyModel(std::string path, std::string what, const std::string& type);

  const ModuleTree& tree() const override { return tree_; }

  // The code runs on values: on the meta device (summary's pass on shapes) it runs on zeros of
  // the inputs' shapes, and its outputs' shapes are the answer.
  c10::IValue forward(std::vector<c10::IValue> inputs, CallHooks& hooks) override;

  void clear_gradients() override {}
  // Constants at most, not parameters: nothing a backward or an optimizer step would reach.
  std::vector<at::Tensor> parameters() const override { return {}; }
  CallTrace static_trace() const override { return call_per_module(tree_); }
  void to(const at::Device& device) override;
  void train(bool on) override;

 protected:
  // One run on CPU tensors: the outputs, flat.
  virtual std::vector<at::Tensor> run(const std::vector<at::Tensor>& inputs) = 0;
  // The outputs as forward returns them: the one tensor, else a tuple.
  virtual c10::IValue pack(std::vector<c10::IValue> outputs) const;
  // After run(): the calls inside the root the last run can tell (an ExecuTorch program's, by
  // its ETRecord), each reported to `hooks` as forward would, numbered from 1; `meta`: their
  // outputs on the meta device.
  virtual void report_calls(CallHooks& hooks, bool meta) {}

  std::string path_;
  ModuleTree tree_;  // the root, then whatever a kind adds (a package's constants by module)

 private:
  std::string what_;
};

}  // namespace modrec
