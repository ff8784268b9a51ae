#include "memory/memory_meter.h"

#include <doctest/doctest.h>
#include <torch/torch.h>

namespace modrec {
namespace {

CallTrace two_calls() {
  CallTrace trace;
  trace.calls.resize(2);
  trace.calls[1].parent_call = 0;
  return trace;
}

// A hook that allocates what it keeps, as record's do.
struct Keeping : CallHooks {
  std::vector<at::Tensor> kept;
  void enter(int, int, const std::vector<c10::IValue>&) override {
    kept.push_back(at::empty({100000}));
  }
  c10::IValue leave(int, int, const c10::IValue& out) override {
    kept.push_back(at::empty({100000}));
    return out;
  }
};

}  // namespace

TEST_CASE("forward peaks: above what was allocated at each call's start, nested calls in") {
  CallTrace trace = two_calls();
  Keeping hooks;
  {
    MemoryMeter meter({}, &hooks);
    meter.enter(0, 0, {});
    { const at::Tensor freed = at::empty({1000}); }  // 4,000 bytes, freed at once
    const at::Tensor kept = at::empty({250});        // 1,000 bytes
    meter.enter(1, 1, {});
    const at::Tensor inner = at::empty({500});  // 2,000 bytes
    meter.leave(1, 1, inner);
    meter.leave(0, 0, inner);
    meter.add_to(trace);
  }
  CHECK(trace.memory.measured);
  CHECK(trace.calls[0].memory.peak_forward_bytes == 4000);
  CHECK(trace.calls[1].memory.peak_forward_bytes == 2000);
  CHECK(trace.memory.peak_forward_bytes == 4000);
  CHECK(trace.memory.forward_peak_call == 0);
  CHECK(trace.calls[0].memory.saved_bytes == 0);  // no autograd
  CHECK(hooks.kept.size() == 4);                  // the hooks' own 400,000 bytes each: left out
}

TEST_CASE("saved bytes and the backward's peak of a call") {
  CallTrace trace = two_calls();
  const at::Tensor x = torch::randn({1000}, torch::requires_grad());
  {
    MemoryMeter meter({});
    meter.enter(0, 0, {x});
    meter.enter(1, 1, {x});
    const at::Tensor y = x * x;  // saves x (4,000 bytes), twice
    meter.leave(1, 1, y);
    const at::Tensor z = y.exp();  // saves its result (4,000 bytes)
    meter.leave(0, 0, z);
    z.sum().backward();
    meter.add_to(trace);
  }
  CHECK(trace.calls[1].memory.saved_bytes == 4000);
  CHECK(trace.calls[0].memory.saved_bytes == 8000);
  CHECK(trace.memory.saved_bytes == 8000);
  CHECK(trace.calls[1].memory.peak_backward_bytes > 0);
  CHECK(trace.calls[0].memory.peak_backward_bytes >= trace.calls[1].memory.peak_backward_bytes);
  CHECK(trace.memory.peak_bytes >= trace.memory.peak_forward_bytes);
  CHECK(trace.memory.backward_peak_call >= 0);
}

}  // namespace modrec
