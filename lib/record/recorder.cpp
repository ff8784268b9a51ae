#include "record/recorder.h"

#include "record/gradient_hook.h"
#include "run/value_meta.h"

namespace modrec {
namespace {

at::Tensor snapshot(const at::Tensor& t) {
  return t.detach().clone(at::MemoryFormat::Contiguous);
}

c10::IValue snapshot(const c10::IValue& v) {
  return map_tensors(v, [](const at::Tensor& t) { return snapshot(t); });
}

c10::IValue one_or_tuple(std::vector<c10::IValue> items) {
  if (items.size() == 1) return items[0];
  return c10::ivalue::Tuple::create(std::move(items));
}

std::vector<c10::IValue> as_values(const std::vector<at::Tensor>& tensors) {
  std::vector<c10::IValue> out;
  for (const auto& t : tensors) out.push_back(t.defined() ? c10::IValue(t) : c10::IValue());
  return out;
}

}  // namespace

c10::IValue captured_value(const CapturedCall& call, Capture capture) {
  switch (capture) {
    case Capture::input: return one_or_tuple(call.args);
    case Capture::output: return call.output;
    case Capture::grad_input: return one_or_tuple(as_values(call.grad_input));
    case Capture::grad_output: return rebuild_tensors(call.output_shape, call.grad_output);
  }
  return {};
}

Recorder::Recorder(CaptureSet captures, std::function<bool(int)> selected,
                   const TraceCollector& trace)
    : captures_(captures), selected_(std::move(selected)), trace_(trace) {}

void Recorder::enter(int module, const std::vector<c10::IValue>& args) {
  const int call = static_cast<int>(trace_.trace().calls.size()) - 1;
  if (!selected_(call)) {
    open_.push_back(nullptr);
    return;
  }
  CapturedCall& captured = captured_.emplace_back();
  captured.call = call;
  captured.module = module;
  if (captures_.input)
    for (const auto& a : args) captured.args.push_back(snapshot(a));
  if (captures_.grad_input) captured.grad_input.resize(args.size());
  open_.push_back(&captured);
}

// Only reached with InstrumentOptions::route_tensor_args. The clone separates this call's use of
// x from x's other consumers, so its gradient is the module-local one Python's hooks report.
at::Tensor Recorder::route(int, size_t argno, const at::Tensor& x) {
  CapturedCall* call = open_.empty() ? nullptr : open_.back();
  if (!call || !captures_.grad_input || !x.requires_grad()) return x;
  at::Tensor routed = x.clone();
  on_gradient(routed, [call, argno](const at::Tensor& grad) {
    call->grad_input[argno] = grad.detach().clone();
  });
  return routed;
}

c10::IValue Recorder::leave(int, const c10::IValue& output) {
  if (open_.empty()) return output;
  CapturedCall* call = open_.back();
  open_.pop_back();
  if (!call) return output;
  if (captures_.output) call->output = snapshot(output);
  return captures_.grad_output ? route_outputs(*call, output) : output;
}

// The caller continues with hooked clones of the returned tensors: their gradient is what flows
// in from outside the call, as Python's register_full_backward_hook reports it. A hook on the
// returned tensor itself would also count uses inside the call (an LSTM cell's c feeds its h),
// and stays exact when an in-place op rewrites the clone later (retain_grad would not).
c10::IValue Recorder::route_outputs(CapturedCall& call, const c10::IValue& output) {
  call.output_shape = output;
  call.grad_output.clear();
  return map_tensors(output, [&call](const at::Tensor& t) {
    const size_t slot = call.grad_output.size();
    call.grad_output.emplace_back();
    if (!t.requires_grad()) return t;
    at::Tensor routed = t.clone();
    CapturedCall* target = &call;
    on_gradient(routed, [target, slot](const at::Tensor& grad) {
      target->grad_output[slot] = grad.detach().clone();
    });
    return routed;
  });
}

}  // namespace modrec
