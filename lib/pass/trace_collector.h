// CallHooks that write down what each call saw and returned (shapes only, no tensor copies).
#pragma once
#include "instrument/call_hooks.h"
#include "model/call_trace.h"

namespace modrec {

class TraceCollector : public CallHooks {
 public:
  // `given_by_position`: the inputs given to the root by position (arguments/forward_inputs.h's
  // given_by_position), its input (Call::inputs) when the model tells of none (a .pt2 exported
  // with keyword inputs only), as torchinfo's input_data is.
  explicit TraceCollector(std::vector<c10::IValue> given_by_position = {})
      : given_by_position_(std::move(given_by_position)) {}

  void enter(int call, int module, const std::vector<c10::IValue>& args) override;
  c10::IValue leave(int call, int module, const c10::IValue& output) override;
  // The call's input (Call::inputs) is its positional arguments', where only some are; what its
  // file does not keep of its signature is marked (Call::keywords_untold, structure_untold).
  void caveats(int call, const CallCaveats& told) override;

  const CallTrace& trace() const { return trace_; }
  // The trace so far, for what measured the same pass to add its figures to (memory_meter.h).
  CallTrace& trace() { return trace_; }
  CallTrace take() { return std::move(trace_); }
  // The innermost call still open (-1 when none): where a failing model was.
  int open_call() const { return open_.empty() ? -1 : open_.back(); }

 private:
  CallTrace trace_;
  std::vector<int> open_;
  std::vector<c10::IValue> given_by_position_;
};

}  // namespace modrec
