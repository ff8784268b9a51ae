// CallHooks that record the chosen values of the selected calls of one pass. Every captured tensor
// is summarized (statistics, shape, dtype) the moment it exists: inputs as a call starts, outputs
// as it returns (later in-place ops would overwrite them), gradients inside the autograd hooks.
// When tensors are saved they are written to the pass's BatchFile at that same moment.
#pragma once
#include <atomic>
#include <deque>
#include <functional>
#include <optional>

#include "edit/call_edits.h"
#include "instrument/call_hooks.h"
#include "record/collect/batch_file.h"
#include "record/collect/gradient_hook.h"
#include "record/collect/no_derivative.h"
#include "model/captures.h"
#include "tensor_stats/tensor_summary_memo.h"
#include "tensor_stats/tensor_stats.h"

namespace modrec {

// One capture of one call in one batch.
struct CapturedValue {
  std::vector<TensorSummary> tensors;  // every present tensor, depth-first
  // When saving: the same tensors in the batch file.
  std::vector<BatchFileTensor> stored;
  // Where the tensors sit in the value (left undefined), with its non-tensor values (None where a
  // gradient never arrived). Gradients fill it only when saving.
  c10::IValue structure;
  uint64_t order = 0;  // when it was captured, on the Recorder's clock
  // Gradients refused (record/collect/no_derivative.h; CallCaveats' untold gradients).
  std::vector<NoGradient> no_gradient;
};

// A gradient that may arrive during backward, for one tensor slot of a call.
struct GradientSlot {
  std::optional<TensorSummary> summary;   // empty: no gradient reached it
  std::optional<BatchFileTensor> stored;  // when saving
  uint64_t order = 0;                     // when it arrived, on the Recorder's clock
  GradientEdge edge;                      // where the hook waits for it
  // Operators without a derivative on a way from the loss to here: the gradient is refused.
  std::vector<std::string> blocked_by;
  // Non-empty: the model cannot tell it (CallCaveats' untold gradients), so it is refused unhooked.
  std::string untold;
};

struct CapturedCall {
  int call = 0;  // index in the pass's CallTrace
  int module = 0;
  uint64_t started = 0;  // autograd_clock() when the call started
  CapturedValue input, output;
  c10::IValue output_skeleton;  // the output's structure, tensors left undefined
  size_t num_args = 0;
  std::vector<GradientSlot> grad_output;  // per tensor of the output, depth-first
  std::vector<GradientSlot> grad_input;   // per positional argument
  // CallCaveats::untold_inputs, untold_outputs: why, for every slot of grad_input and grad_output.
  std::string untold_inputs, untold_outputs;
};

// The value of one capture of the call (not param, param_grad), once backward is done. A single
// argument or tensor stays itself, several become a tuple; gradients that never arrived are None.
CapturedValue captured_value(const CapturedCall& call, Capture capture);

class Recorder : public CallHooks {
 public:
  // `selected(call, module)` is asked once per call, when it starts.
  // `file`: where to write the tensors themselves (to save them); nullptr: summaries only.
  // `edits`: applied to every call's output after it is captured (before the gradient hooks, so
  // grad_output is the gradient of the edited output); nullptr: none.
  Recorder(CaptureSet captures, BatchFile* file, std::function<bool(int, int)> selected,
           CallEdits* edits = nullptr);

  void enter(int call, int module, const std::vector<c10::IValue>& args) override;
  c10::IValue leave(int call, int module, const c10::IValue& output) override;
  at::Tensor route(int call, size_t argno, const at::Tensor& x) override;
  // The call's gradient slots of each side the model cannot tell (CallCaveats::untold_inputs,
  // untold_outputs) are refused, listed under no_gradient.
  void caveats(int call, const CallCaveats& told) override;

  // Before backward from `root`: every gradient hooked so far that would pass through an
  // operator without a derivative is refused (its hook records nothing; the capture lists it
  // under no_gradient).
  void refuse_blocked(NoDerivativeOps& ops, const at::Tensor& root);

  // --when target:K: every captured tensor whose dim 0 has `samples` rows keeps only `rows`.
  void keep_rows(at::Tensor rows, int64_t samples);

  std::deque<CapturedCall>& captured() { return captured_; }
  const std::deque<CapturedCall>& captured() const { return captured_; }

 private:
  CapturedValue capture(const c10::IValue& value) const;
  at::Tensor kept(const at::Tensor& t) const;
  void hook(const at::Tensor& t, std::vector<GradientSlot>& slots, size_t slot) const;
  c10::IValue route_outputs(CapturedCall& call, const c10::IValue& output);

  CaptureSet captures_;
  BatchFile* file_;
  std::function<bool(int, int)> selected_;
  CallEdits* edits_;
  // Counts captures (inputs as calls start, outputs as they return, gradients as they arrive):
  // the order in which values came to exist. Atomic: backward may run hooks on other threads.
  mutable std::atomic<uint64_t> clock_{0};
  mutable TensorSummaryMemo memo_;  // a container's output and gradient are its last child's
  at::Tensor rows_;                 // undefined: every row
  int64_t samples_ = 0;
  std::deque<CapturedCall> captured_;  // a deque: gradient hooks hold pointers into it
  std::vector<CapturedCall*> open_;    // per open call; nullptr when not recorded
};

}  // namespace modrec
