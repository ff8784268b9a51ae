#include "record/collect/recorder.h"

#include <c10/core/GradMode.h>

#include "record/collect/gradient_hook.h"
#include "pass/value_meta.h"

namespace modrec {
namespace {

c10::IValue one_or_tuple(std::vector<c10::IValue> items) {
  if (items.size() == 1) return items[0];
  return c10::ivalue::Tuple::create(std::move(items));
}

c10::IValue without_tensors(const c10::IValue& value) {
  return map_tensors(value, [](const at::Tensor&) { return at::Tensor(); });
}

// Gradients slot by slot into `skeleton`'s places (None where none arrived), with summaries of
// the ones that did, and the places of those refused.
CapturedValue gather(const c10::IValue& skeleton, const std::vector<GradientSlot>& slots) {
  CapturedValue out;
  const std::vector<std::string> places = tensor_places(skeleton);
  for (size_t i = 0; i < slots.size(); ++i) {
    const GradientSlot& slot = slots[i];
    if (slot.summary) out.tensors.push_back(*slot.summary);
    if (slot.stored) out.stored.push_back(*slot.stored);
    if ((!slot.blocked_by.empty() || !slot.untold.empty()) && i < places.size())
      out.no_gradient.push_back({places[i], slot.blocked_by, slot.untold});
  }
  const at::Tensor mark = at::empty({0});  // where a gradient arrived; rebuild makes the rest None
  std::vector<at::Tensor> arrived;
  for (const auto& slot : slots) arrived.push_back(slot.summary ? mark : at::Tensor());
  out.structure = without_tensors(rebuild_tensors(skeleton, arrived));
  return out;
}

// Outputs hold a few tensors: pairwise is cheaper than a set, and allocates nothing per call.
bool has_repeats(const std::vector<at::Tensor>& tensors) {
  for (size_t i = 0; i < tensors.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (tensors[i].is_same(tensors[j])) return true;
  return false;
}

// A gradient the model cannot tell (`why`) is refused instead of hooked.
bool refused_untold(const std::string& why, GradientSlot& slot) {
  slot.untold = why;
  return !why.empty();
}

}  // namespace

CapturedValue captured_value(const CapturedCall& call, Capture capture) {
  switch (capture) {
    case Capture::input:
      return call.input;
    case Capture::output:
      return call.output;
    case Capture::grad_input: {
      std::vector<c10::IValue> places(call.num_args, c10::IValue(at::Tensor()));
      return gather(one_or_tuple(std::move(places)), call.grad_input);
    }
    case Capture::grad_output:
      return gather(call.output_skeleton, call.grad_output);
    case Capture::param:
    case Capture::param_grad:
      break;  // the module's, not the call's: AccumulatedLayers
  }
  return {};
}

Recorder::Recorder(CaptureSet captures, BatchFile* file, std::function<bool(int, int)> selected,
                   CallEdits* edits)
    : captures_(captures), file_(file), selected_(std::move(selected)), edits_(edits) {}

void Recorder::keep_rows(at::Tensor rows, int64_t samples) {
  rows_ = std::move(rows);
  samples_ = samples;
}

// A quantized tensor is kept as the real values it stands for, as float32 (what eager PyTorch's
// t.dequantize() gives): statistics, files and diffs against a float model read those.
at::Tensor Recorder::kept(const at::Tensor& tensor) const {
  const at::Tensor t = tensor.is_quantized() ? tensor.dequantize() : tensor;
  if (!rows_.defined() || t.dim() == 0 || t.size(0) != samples_) return t;
  return t.index_select(0, rows_.to(t.device()));
}

CapturedValue Recorder::capture(const c10::IValue& raw) const {
  const c10::IValue value = undefined_as_none(raw);
  CapturedValue out;
  std::vector<at::Tensor> tensors;
  flatten_tensors(value, tensors);
  for (auto& t : tensors) t = kept(t);
  out.order = ++clock_;
  for (const auto& t : tensors) out.tensors.push_back(memo_.summarize(t));
  out.structure = without_tensors(value);  // also keeps the non-tensor values for the manifest
  if (!file_) return out;
  for (const auto& t : tensors) out.stored.push_back(file_->write(t));
  return out;
}

void Recorder::enter(int call, int module, const std::vector<c10::IValue>& args) {
  if (edits_) edits_->on_call(call, module);
  if (!selected_(call, module)) {
    open_.push_back(nullptr);
    return;
  }
  CapturedCall& captured = captured_.emplace_back();
  captured.call = call;
  captured.module = module;
  captured.started = autograd_clock();
  captured.num_args = args.size();
  if (captures_.input) captured.input = capture(one_or_tuple(args));
  if (captures_.grad_input) captured.grad_input.resize(args.size());
  open_.push_back(&captured);
}

void Recorder::hook(const at::Tensor& t, std::vector<GradientSlot>& slots, size_t slot) const {
  slots[slot].edge = on_gradient(t, [this, &slots, slot](const at::Tensor& full) {
    if (!slots[slot].blocked_by.empty()) return;  // a part of it, at most
    const at::Tensor grad = kept(full);
    slots[slot].summary = memo_.summarize(grad);
    slots[slot].order = ++clock_;
    if (file_) slots[slot].stored = file_->write(grad);
  });
}

void Recorder::refuse_blocked(NoDerivativeOps& ops, const at::Tensor& root) {
  std::vector<GradientSlot*> slots;
  for (CapturedCall& call : captured_)
    for (auto* list : {&call.grad_output, &call.grad_input})
      for (GradientSlot& slot : *list)
        if (slot.edge.node) slots.push_back(&slot);
  std::vector<const GradientEdge*> edges;
  for (const GradientSlot* slot : slots) edges.push_back(&slot->edge);
  const auto blocked = ops.blocking(root, edges);
  for (size_t i = 0; i < slots.size(); ++i) slots[i]->blocked_by = blocked[i];
}

// Only reached with InstrumentOptions::route_tensor_args. The clone separates this call's use of
// x from x's other consumers, so its gradient is the module-local one Python's hooks report.
// Under no_grad (a torch.export no_grad subgraph) no gradient flows, and Python's hooks skip.
at::Tensor Recorder::route(int, size_t argno, const at::Tensor& x) {
  CapturedCall* call = open_.empty() ? nullptr : open_.back();
  if (!call || !captures_.grad_input || !x.requires_grad() || !at::GradMode::is_enabled()) return x;
  if (refused_untold(call->untold_inputs, call->grad_input[argno])) return x;
  at::Tensor routed = x.clone();
  hook(routed, call->grad_input, argno);
  return routed;
}

void Recorder::caveats(int, const CallCaveats& told) {
  if (CapturedCall* call = open_.back()) {
    call->untold_inputs = told.untold_inputs;
    call->untold_outputs = told.untold_outputs;
  }
}

c10::IValue Recorder::leave(int index, int, const c10::IValue& output) {
  CapturedCall* call = open_.back();
  open_.pop_back();
  if (call && captures_.output) call->output = capture(output);
  const c10::IValue out = edits_ ? edits_->apply(index, output) : output;
  return call && captures_.grad_output ? route_outputs(*call, out) : out;
}

// The caller continues with hooked clones of the returned tensors: their gradient is what flows
// in from outside the call, as Python's register_full_backward_hook reports it. A hook on the
// returned tensor itself would also count uses inside the call (an LSTM cell's c feeds its h),
// and the clone stays exact when an in-place op rewrites it later (retain_grad would not).
// A tensor made inside the call and not used there since needs no clone: its own node's hook
// sees the same gradient (and in-place ops later only add nodes after it). That saves copying
// most outputs; a tensor returned twice is always cloned, so each place gets its own gradient.
c10::IValue Recorder::route_outputs(CapturedCall& call, const c10::IValue& output) {
  call.output_skeleton = without_tensors(output);
  std::vector<at::Tensor> tensors;
  flatten_tensors(output, tensors);
  call.grad_output.assign(tensors.size(), GradientSlot());
  const bool repeated = has_repeats(tensors);
  size_t slot = 0;
  return map_tensors(output, [&](const at::Tensor& t) {
    const size_t i = slot++;
    if (!t.requires_grad() || !at::GradMode::is_enabled()) return t;
    if (refused_untold(call.untold_outputs, call.grad_output[i])) return t;
    const bool keep = !repeated && unconsumed_since(t, call.started);
    at::Tensor routed = keep ? t : t.clone();
    hook(routed, call.grad_output, i);
    return routed;
  });
}

}  // namespace modrec
