// Memory measured per module call: what autograd saves for the backward in each call's forward,
// and the peak of allocated bytes in its forward and its backward. The only user of LibTorch's
// allocation reporting (c10::MemoryReportingInfoBase), in memory_meter.cpp.
#pragma once
#include <memory>

#include "instrument/call_hooks.h"
#include "model/call_trace.h"

namespace c10 {
class DebugInfoGuard;
}

namespace modrec {

// While alive, sees every allocation and free LibTorch's allocators make on this thread (and
// that the autograd engine makes for it): a reporter in the thread's PROFILER_STATE slot, where
// PyTorch's profiler puts its own (so the two never run together). Construct it only when memory
// is asked for: until then nothing is reported and allocations cost what they cost.
// - A call's forward peak: the most bytes allocated at once while it was open, above what was
//   allocated when it started. Its backward peak: the same from when the first autograd node its
//   forward made (its nested calls' included) started running to when the last one ended.
// - Saved bytes: at the call's end, the autograd nodes its forward made (by sequence number,
//   reachable from its result and its arguments) and the tensors they saved (saved_tensors.h),
//   each storage once, the `resident` tensors' (parameters, buffers) left out.
// - What `next` (record's hooks, --edit's) allocates in its hooks, and what runs under OwnWork
//   (own_work.h), is modrec's, not the model's: left out, its frees too.
// CPU only: a CUDA backward runs on the engine's device threads, which the reporter does not see.
class MemoryMeter : public CallHooks {
 public:
  explicit MemoryMeter(const std::vector<at::Tensor>& resident, CallHooks* next = nullptr);
  ~MemoryMeter() override;
  MemoryMeter(const MemoryMeter&) = delete;
  MemoryMeter& operator=(const MemoryMeter&) = delete;

  void enter(int call, int module, const std::vector<c10::IValue>& args) override;
  c10::IValue leave(int call, int module, const c10::IValue& output) override;
  at::Tensor route(int call, size_t argno, const at::Tensor& x) override;
  void caveats(int call, const CallCaveats& told) override;

  // After the backward (or the forward alone): the figures into the trace of the same pass
  // (Call::memory, CallTrace::memory). Warns once naming the autograd node
  // types that could not tell what they saved.
  void add_to(CallTrace& trace) const;

  struct State;

 private:
  std::shared_ptr<State> state_;
  std::unique_ptr<c10::DebugInfoGuard> reporting_;  // state_ as this thread's reporter
  CallHooks* next_;
};

}  // namespace modrec
