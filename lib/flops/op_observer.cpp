#include "flops/op_observer.h"

#include <ATen/SequenceNumber.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/record_function.h>

#include <map>
#include <string>
#include <unordered_map>
#include <utility>

#include "flops/flop_formulas.h"
#include "pass/node_owners.h"

namespace modrec {
namespace {

// How FlopCounterMode (a TorchDispatchMode) would see an operator.
enum class OpKind {
  decomposes,  // CompositeImplicitAutograd: never reaches the mode, the ops it calls do
  counted,     // reaches the mode, has a formula
  uncounted,   // reaches the mode, no formula
  modrec,      // modrec's own instrumentation ops: not part of the model
};

// linear and matmul also register an Autograd kernel, which runs their decomposition too.
bool decomposes(const c10::OperatorName& name) {
  auto op = c10::Dispatcher::singleton().findOp(name);
  return op && op->hasKernelForDispatchKey(c10::DispatchKey::CompositeImplicitAutograd);
}

OpKind classify(const at::RecordFunction& fn) {
  const std::string_view name = fn.name();
  if (name.rfind("modrec::", 0) == 0) return OpKind::modrec;
  auto op_name = fn.operator_name();
  // A named region (no operator) never reaches the mode; the operators inside it may.
  if (!op_name || decomposes(*op_name)) return OpKind::decomposes;
  return has_flop_formula(name) ? OpKind::counted : OpKind::uncounted;
}

OpArg op_arg(const c10::IValue& v) {
  if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    return t.defined() ? OpArg::tensor(t.sizes().vec()) : OpArg{};
  }
  if (v.isIntList()) return OpArg::ints(v.toIntVector());
  if (v.isBoolList()) {
    std::vector<int64_t> flags;
    for (bool b : v.toBoolList()) flags.push_back(b);
    return OpArg::ints(std::move(flags));
  }
  if (v.isBool()) return OpArg::number(v.toBool());
  if (v.isInt()) return OpArg::number(v.toInt());
  return {};
}

template <class Values>
std::vector<OpArg> op_args(const Values& values) {
  std::vector<OpArg> out;
  out.reserve(values.size());
  for (const c10::IValue& v : values) out.push_back(op_arg(v));
  return out;
}

}  // namespace

struct OpObserver::State {
  // What each RecordFunction still running on this thread is to the count, innermost last.
  enum class Frame { node, invisible, seen, counted };

  std::vector<int> open;   // forward calls still running, innermost last
  NodeOwners node_owners;  // the call whose forward made each autograd node
  std::vector<int> nodes;  // backward: the owning call of each node running, innermost last
  std::vector<Frame> frames;
  std::vector<std::vector<OpArg>> counted_args;  // of each counted operator running
  int seen_depth = 0;  // operators FlopCounterMode sees that are running (it sees none inside)
  std::vector<int64_t> forward, backward;  // per call, the FLOPs of its own operators
  std::map<std::string, int64_t> unattributed;
  std::unordered_map<const char*, OpKind> kinds;  // by the schema's name, which outlives the run
  at::CallbackHandle handle = 0;

  void start(const at::RecordFunction& fn) {
    if (fn.scope() == at::RecordScope::BACKWARD_FUNCTION) {
      frames.push_back(Frame::node);
      nodes.push_back(node_owners.owner(fn.seqNr()));
      return;
    }
    const OpKind kind = seen_depth > 0 ? OpKind::decomposes : kind_of(fn);
    if (kind == OpKind::decomposes) return frames.push_back(Frame::invisible);
    ++seen_depth;
    frames.push_back(kind == OpKind::counted ? Frame::counted : Frame::seen);
    if (kind == OpKind::uncounted) ++unattributed[fn.name()];
    // The arguments can be read only here; the results only at the end.
    if (kind == OpKind::counted) counted_args.push_back(op_args(fn.inputs()));
  }

  void end(const at::RecordFunction& fn) {
    if (frames.empty()) return;  // started before the callback was added
    const Frame frame = frames.back();
    frames.pop_back();
    if (frame == Frame::node) nodes.pop_back();
    if (frame == Frame::seen || frame == Frame::counted) --seen_depth;
    if (frame == Frame::counted) count(fn);
  }

  OpKind kind_of(const at::RecordFunction& fn) {
    auto [it, added] = kinds.try_emplace(fn.name(), OpKind::uncounted);
    if (added) it->second = classify(fn);
    return it->second;
  }

  void count(const at::RecordFunction& fn) {
    const std::vector<OpArg> args = std::move(counted_args.back());
    counted_args.pop_back();
    auto flops = op_flops(fn.name(), args, op_args(fn.outputs()));
    if (!flops) {
      ++unattributed[fn.name()];
      return;
    }
    // After the root call returned only the backward runs; its loose operators go to the root.
    if (!nodes.empty() || open.empty())
      at_call(backward, nodes.empty() ? 0 : nodes.back()) += *flops;
    else
      at_call(forward, open.back()) += *flops;
  }

  static int64_t& at_call(std::vector<int64_t>& per_call, int call) {
    if (per_call.size() <= static_cast<size_t>(call)) per_call.resize(call + 1, 0);
    return per_call[call];
  }

  void moved_to(int call) { node_owners.moved_to(at::sequence_number::peek(), call); }
};

namespace {
thread_local OpObserver::State* t_state = nullptr;

std::unique_ptr<at::ObserverContext> on_start(const at::RecordFunction& fn) {
  if (t_state) t_state->start(fn);
  return nullptr;
}

void on_end(const at::RecordFunction& fn, at::ObserverContext*) {
  if (t_state) t_state->end(fn);
}
}  // namespace

OpObserver::OpObserver(CallHooks* next) : state_(std::make_unique<State>()), next_(next) {
  t_state = state_.get();
  state_->handle = at::addThreadLocalCallback(
      at::RecordFunctionCallback(on_start, on_end)
          .needsInputs(true)
          .needsOutputs(true)
          .scopes({at::RecordScope::FUNCTION, at::RecordScope::BACKWARD_FUNCTION}));
}

OpObserver::~OpObserver() {
  at::removeCallback(state_->handle);
  t_state = nullptr;
}

void OpObserver::enter(int call, int module, const std::vector<c10::IValue>& args) {
  state_->open.push_back(call);
  state_->moved_to(call);
  if (next_) next_->enter(call, module, args);
}

c10::IValue OpObserver::leave(int call, int module, const c10::IValue& output) {
  state_->open.pop_back();
  state_->moved_to(state_->open.empty() ? -1 : state_->open.back());
  return next_ ? next_->leave(call, module, output) : output;
}

at::Tensor OpObserver::route(int call, size_t argno, const at::Tensor& x) {
  return next_ ? next_->route(call, argno, x) : x;
}

void OpObserver::caveats(int call, const CallCaveats& told) {
  if (next_) next_->caveats(call, told);
}

void OpObserver::add_to(CallTrace& trace) const {
  for (size_t i = 0; i < trace.calls.size(); ++i) {
    trace.calls[i].flops_forward = i < state_->forward.size() ? state_->forward[i] : 0;
    trace.calls[i].flops_backward = i < state_->backward.size() ? state_->backward[i] : 0;
  }
  trace.unattributed_ops = state_->unattributed;
  trace.flops_counted = true;
}

}  // namespace modrec
