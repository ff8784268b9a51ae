#include "memory/memory_meter.h"

#include <ATen/SequenceNumber.h>
#include <ATen/record_function.h>
#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_set>

#include "values/ivalue_walk.h"
#include "memory/own_work.h"
#include "memory/saved_tensors.h"
#include "pass/node_owners.h"
#include "util/log.h"
#include "util/text.h"

namespace modrec {
namespace {

// A forward call still open.
struct Frame {
  int call = 0;
  int64_t start = 0;  // bytes allocated when it started
  int64_t peak = 0;   // the most since, its nested calls' included
  uint64_t first_node = 0;
  // Its tensor arguments, to which an in-place operator may give a node of the call; held weakly
  // (a held argument would outlive the model's last use of it, and move the peaks).
  std::vector<c10::weak_intrusive_ptr<c10::TensorImpl, c10::UndefinedTensorImpl>> args;
};

// The backward from the start of one autograd node to the start of the next.
struct Segment {
  int owner = 0;  // the call whose forward made the node
  int64_t start = 0;
  int64_t peak = 0;
};

int64_t& at_call(std::vector<int64_t>& per_call, int call) {
  if (per_call.size() <= static_cast<size_t>(call)) per_call.resize(call + 1, 0);
  return per_call[call];
}

}  // namespace

struct MemoryMeter::State : c10::MemoryReportingInfoBase {
  StorageSet resident;
  int64_t live = 0;  // bytes allocated since the meter started, frees taken off
  int64_t max_live = 0;
  std::unordered_set<void*> own;  // modrec's allocations still live
  std::vector<Frame> open;
  int64_t root_start = 0;
  int64_t forward_max = 0;
  int forward_peak_call = -1;
  NodeOwners owners;
  std::vector<Segment> segments;
  std::vector<int64_t> saved, peak_forward;
  std::set<std::string> untold;
  at::CallbackHandle handle = 0;

  void reportMemoryUsage(void* ptr, int64_t bytes, size_t, size_t, c10::Device) override {
    if (bytes > 0 && OwnWork::active()) {
      own.insert(ptr);
      return;
    }
    if (bytes < 0 && own.erase(ptr)) return;
    live += bytes;
    if (bytes <= 0) return;
    max_live = std::max(max_live, live);
    if (!open.empty()) {
      Frame& f = open.back();
      f.peak = std::max(f.peak, live);
      if (live > forward_max) {
        forward_max = live;
        forward_peak_call = f.call;
      }
    } else if (!segments.empty()) {
      segments.back().peak = std::max(segments.back().peak, live);
    }
  }
  bool memoryProfilingEnabled() const override { return true; }

  void node_started(int64_t sequence_nr) {
    if (open.empty()) segments.push_back({owners.owner(sequence_nr), live, live});
  }

  void entered(int call, const std::vector<c10::IValue>& args) {
    if (open.empty()) {
      root_start = live;
      forward_max = live;
      forward_peak_call = call;
    }
    Frame f{call, live, live, at::sequence_number::peek(), {}};
    std::vector<at::Tensor> tensors;
    for (const c10::IValue& a : args) flatten_tensors(a, tensors);
    for (const at::Tensor& t : tensors)
      if (t.defined()) f.args.emplace_back(t.getIntrusivePtr());
    open.push_back(std::move(f));
    owners.moved_to(at::sequence_number::peek(), call);
  }

  void left(const c10::IValue& output) {
    Frame f = std::move(open.back());
    open.pop_back();
    owners.moved_to(at::sequence_number::peek(), open.empty() ? -1 : open.back().call);
    std::vector<at::Tensor> roots;
    flatten_tensors(output, roots);
    for (const auto& weak : f.args)
      if (auto arg = weak.lock()) roots.push_back(at::Tensor(std::move(arg)));
    const SavedInSpan in_span =
        saved_in_span(roots, f.first_node, at::sequence_number::peek(), resident);
    at_call(saved, f.call) = in_span.bytes;
    untold.insert(in_span.untold.begin(), in_span.untold.end());
    at_call(peak_forward, f.call) = f.peak - f.start;
    if (!open.empty()) open.back().peak = std::max(open.back().peak, f.peak);
  }

  // Per call, its backward's peak: over the segments from the first to the last of its nodes and
  // its nested calls' (a call starts after its parent: from the last, each widens its parent's).
  std::vector<int64_t> backward_peaks(const CallTrace& trace) const {
    const size_t n = trace.calls.size();
    std::vector<size_t> first(n, SIZE_MAX), last(n, 0);
    for (size_t s = 0; s < segments.size(); ++s) {
      const auto c = static_cast<size_t>(segments[s].owner);
      if (c >= n) continue;
      first[c] = std::min(first[c], s);
      last[c] = std::max(last[c], s);
    }
    for (size_t i = n; i-- > 1;) {
      const int parent = trace.calls[i].parent_call;
      if (parent < 0 || first[i] == SIZE_MAX) continue;
      first[parent] = std::min(first[parent], first[i]);
      last[parent] = std::max(last[parent], last[i]);
    }
    std::vector<int64_t> out(n, 0);
    for (size_t i = 0; i < n; ++i) {
      if (first[i] == SIZE_MAX) continue;
      int64_t peak = segments[first[i]].start;
      for (size_t s = first[i]; s <= last[i]; ++s) peak = std::max(peak, segments[s].peak);
      out[i] = peak - segments[first[i]].start;
    }
    return out;
  }

  int backward_peak_call() const {
    auto it = std::max_element(segments.begin(), segments.end(),
                               [](const Segment& a, const Segment& b) { return a.peak < b.peak; });
    return it == segments.end() ? -1 : it->owner;
  }
};

namespace {
thread_local MemoryMeter::State* t_meter = nullptr;

std::unique_ptr<at::ObserverContext> on_node_start(const at::RecordFunction& fn) {
  if (t_meter) t_meter->node_started(fn.seqNr());
  return nullptr;
}

int64_t value_or_zero(const std::vector<int64_t>& per_call, size_t call) {
  return call < per_call.size() ? per_call[call] : 0;
}
}  // namespace

MemoryMeter::MemoryMeter(const std::vector<at::Tensor>& resident, CallHooks* next)
    : state_(std::make_shared<State>()), next_(next) {
  state_->resident = storages_of(resident);
  reporting_ = std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE, state_);
  t_meter = state_.get();
  state_->handle = at::addThreadLocalCallback(
      at::RecordFunctionCallback(on_node_start).scopes({at::RecordScope::BACKWARD_FUNCTION}));
}

MemoryMeter::~MemoryMeter() {
  at::removeCallback(state_->handle);
  t_meter = nullptr;
}

void MemoryMeter::enter(int call, int module, const std::vector<c10::IValue>& args) {
  if (next_) {
    OwnWork own;
    next_->enter(call, module, args);
  }
  state_->entered(call, args);
}

c10::IValue MemoryMeter::leave(int call, int module, const c10::IValue& output) {
  state_->left(output);
  if (!next_) return output;
  OwnWork own;
  return next_->leave(call, module, output);
}

at::Tensor MemoryMeter::route(int call, size_t argno, const at::Tensor& x) {
  if (!next_) return x;
  OwnWork own;
  return next_->route(call, argno, x);
}

void MemoryMeter::caveats(int call, const CallCaveats& told) {
  if (next_) next_->caveats(call, told);
}

void MemoryMeter::add_to(CallTrace& trace) const {
  const State& s = *state_;
  const std::vector<int64_t> backward = s.backward_peaks(trace);
  for (size_t i = 0; i < trace.calls.size(); ++i) {
    trace.calls[i].memory = {value_or_zero(s.saved, i), value_or_zero(s.peak_forward, i),
                             backward[i]};
  }
  MemoryTotals& m = trace.memory;
  m.measured = true;
  m.peak_forward_bytes = value_or_zero(s.peak_forward, 0);
  m.peak_bytes = s.max_live - s.root_start;
  m.saved_bytes = value_or_zero(s.saved, 0);
  m.forward_peak_call = s.forward_peak_call;
  m.backward_peak_call = s.backward_peak_call();
  if (!s.untold.empty())
    log::warn("autograd nodes that do not list what they save, counted as saving nothing: ",
              join(std::vector<std::string>(s.untold.begin(), s.untold.end()), ", "));
}

}  // namespace modrec
