// The --edit rewrites of a run: which calls each edit selects (by label, known as each call
// starts) and their outputs rewritten. record's Recorder applies them to an output after
// capturing it; EditingHooks applies them for summary.
//
// Each edit applies to every floating-point tensor of the output, in the order the edits were
// given; the graph is kept, so gradients flow through the edit as they would through the same
// expression in eager PyTorch:
//   zero: t * 0   scale: t * K   add: t + K   clamp: t.clamp(LO, HI)
//   noise: t + SIGMA * randn(t.shape, generator seeded with --seed, drawn in call order on the CPU)
//   replace: the file's tensor (a constant: no gradient reaches the layer)
//   keep: t * mask, mask 1 on the listed channels of dim 1, 0 elsewhere
#pragma once
#include <ATen/ATen.h>

#include <optional>
#include <vector>

#include "edit/edit_spec.h"
#include "model/layer_match.h"
#include "model/module_tree.h"
#include "labels/call_labeler.h"

namespace modrec {

class CallEdits {
 public:
  // Reads the replace: files (Error(bad_input) naming one that cannot be read).
  CallEdits(const EditOptions& options, const ModuleTree& tree);

  bool empty() const { return edits_.empty(); }
  // Every call of a pass, in the order they start (call 0 starts a new pass).
  void on_call(int call, int module);
  // `output` of `call` with its edits applied. Throws Error(usage, ..., "--edit") when an edit
  // cannot apply (replace: of another shape or dtype, or of a tuple; keep: past dim 1's size).
  c10::IValue apply(int call, const c10::IValue& output);
  // After a pass: Error(usage) naming an edit that selected no call, with the valid labels.
  void check_all_matched() const;

 private:
  struct Edit {
    EditSpec spec;
    LayerMatcher matcher;
    at::Tensor replacement;
  };
  at::Tensor edit(const Edit& e, const at::Tensor& t, const std::string& label);

  std::vector<Edit> edits_;
  const ModuleTree& tree_;
  std::optional<CallLabeler> labeler_;        // this pass's
  std::vector<LayerRef> calls_;               // this pass's calls
  std::vector<std::vector<size_t>> by_call_;  // the edits of each call of this pass
  at::Generator noise_;
};

}  // namespace modrec
