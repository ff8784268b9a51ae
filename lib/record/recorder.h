// CallHooks that keep the chosen values of the selected calls of one pass: clones of inputs and
// outputs at call time (in-place ops later would overwrite them) and gradient hooks that fill in
// grad_input / grad_output during backward.
#pragma once
#include <deque>
#include <functional>

#include "instrument/call_hooks.h"
#include "record/captures.h"
#include "run/trace_collector.h"

namespace modrec {

struct CapturedCall {
  int call = 0;  // index in the pass's CallTrace
  int module = 0;
  std::vector<c10::IValue> args;   // input: clones of the positional arguments
  c10::IValue output;              // output: a clone, structure kept
  c10::IValue output_shape;        // the returned value, for the structure of grad_output
  std::vector<at::Tensor> grad_output;  // per tensor of the output, depth-first; undefined: none
  std::vector<at::Tensor> grad_input;   // per positional argument; undefined: none
};

// The value of one capture, as saved: a single argument or tensor stays itself, several become a
// tuple; grad_output mirrors the output's structure with None where no gradient arrived.
c10::IValue captured_value(const CapturedCall& call, Capture capture);

class Recorder : public CallHooks {
 public:
  // `selected(call index)` is asked once per call, when it starts; `trace` has already seen it.
  Recorder(CaptureSet captures, std::function<bool(int)> selected, const TraceCollector& trace);

  void enter(int module, const std::vector<c10::IValue>& args) override;
  c10::IValue leave(int module, const c10::IValue& output) override;
  at::Tensor route(int module, size_t argno, const at::Tensor& x) override;

  std::deque<CapturedCall>& captured() { return captured_; }

 private:
  c10::IValue route_outputs(CapturedCall& call, const c10::IValue& output);

  CaptureSet captures_;
  std::function<bool(int)> selected_;
  const TraceCollector& trace_;
  std::deque<CapturedCall> captured_;  // a deque: gradient hooks hold pointers into it
  std::vector<CapturedCall*> open_;    // per open call; nullptr when not recorded
};

}  // namespace modrec
