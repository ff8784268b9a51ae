// FLOPs per module call from the ATen operators that ran: the only user of LibTorch's operator
// callbacks (RecordFunction), in op_observer.cpp.
#pragma once
#include <memory>

#include "instrument/call_hooks.h"
#include "model/call_trace.h"

namespace modrec {

// While alive, observes every operator this thread runs (and the autograd engine runs for it) and
// counts FLOPs by FlopCounterMode's formulas (flops/flop_formulas.h), the way FlopCounterMode
// sees operators: an operator that decomposes (CompositeImplicitAutograd: linear, matmul, conv2d)
// is seen as the operators it calls; any other is seen alone, not what runs inside it.
// A forward operator counts for the innermost open call; a backward one for the call whose
// forward created the autograd node that runs it (by the node's sequence number). Operators
// without a formula are counted by name. Construct it only when FLOPs are asked for: until then
// no callback is registered and operators cost what they cost without modrec.
// The count is this thread's: on the CPU the autograd engine runs the backward on the thread that
// calls it; the backward of CUDA tensors runs on the engine's device threads and is not counted.
class OpObserver : public CallHooks {
 public:
  explicit OpObserver(CallHooks* next = nullptr);  // `next` sees every call after this
  ~OpObserver() override;
  OpObserver(const OpObserver&) = delete;
  OpObserver& operator=(const OpObserver&) = delete;

  void enter(int call, int module, const std::vector<c10::IValue>& args) override;
  c10::IValue leave(int call, int module, const c10::IValue& output) override;
  at::Tensor route(int call, size_t argno, const at::Tensor& x) override;
  void caveats(int call, const CallCaveats& told) override;

  // Writes the counts into the trace of the same pass: Call::flops_*, unattributed_ops.
  void add_to(CallTrace& trace) const;

  struct State;

 private:
  std::unique_ptr<State> state_;
  CallHooks* next_;
};

}  // namespace modrec
