#include "pass/trace_collector.h"

#include <doctest/doctest.h>

#include <ATen/ATen.h>

using namespace modrec;

TEST_CASE("a root that tells no positional input takes the inputs given by position") {
  const at::Tensor x = at::zeros({2, 3});
  TraceCollector told({x});
  told.enter(0, 0, {c10::IValue(at::zeros({4}))});
  told.leave(0, 0, x);
  CHECK(told.trace().calls[0].inputs.size == Shape{4});  // the model's own word stands

  TraceCollector keywords({x});
  keywords.enter(0, 0, {c10::IValue(at::zeros({4}))});
  CallCaveats given_none;  // a .pt2 exported with keyword inputs only
  given_none.positional = std::vector<c10::IValue>{};
  keywords.caveats(0, given_none);
  keywords.leave(0, 0, x);
  CHECK(keywords.trace().calls[0].inputs.size == Shape{2, 3});

  TraceCollector none;  // nothing given by position: the root's input stays empty
  none.enter(0, 0, {});
  none.leave(0, 0, x);
  CHECK(none.trace().calls[0].inputs.tensors.empty());
}
