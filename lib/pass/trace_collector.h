// CallHooks that write down what each call saw and returned (shapes only, no tensor copies).
#pragma once
#include "instrument/call_hooks.h"
#include "model/call_trace.h"

namespace modrec {

class TraceCollector : public CallHooks {
 public:
  void enter(int call, int module, const std::vector<c10::IValue>& args) override;
  c10::IValue leave(int call, int module, const c10::IValue& output) override;
  // The call's input (Call::inputs) is its positional arguments'.
  void positional_arguments(int call, const std::vector<c10::IValue>& positional) override;
  void untold_signature(int call, bool keywords, bool structure) override;

  const CallTrace& trace() const { return trace_; }
  // The trace so far, for what measured the same pass to add its figures to (memory_meter.h).
  CallTrace& trace() { return trace_; }
  CallTrace take() { return std::move(trace_); }
  // The innermost call still open (-1 when none): where a failing model was.
  int open_call() const { return open_.empty() ? -1 : open_.back(); }

 private:
  CallTrace trace_;
  std::vector<int> open_;
};

}  // namespace modrec
