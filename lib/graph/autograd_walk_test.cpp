#include "graph/autograd_walk.h"

#include <doctest/doctest.h>
#include <torch/torch.h>

using namespace modrec;

namespace modrec {
// How doctest shows a FlowEnd when a check fails. It is needed, too, because c10's logging header
// declares operator<< for every std::vector, which doctest then picks for vectors of these.
std::ostream& operator<<(std::ostream& os, const FlowEnd& end) {
  const char* kind = end.kind == FlowEnd::Kind::call    ? "call "
                     : end.kind == FlowEnd::Kind::input ? "input "
                                                        : "output ";
  return os << kind << end.index;
}
}  // namespace modrec

namespace {
FlowEnd call(int i) { return {FlowEnd::Kind::call, i}; }
FlowEnd input(int i) { return {FlowEnd::Kind::input, i}; }
}  // namespace

TEST_CASE("ops between producers are folded: an in-place add reaches both its operands") {
  AutogradProducers producers;
  at::Tensor x = torch::randn({3}, torch::requires_grad());
  REQUIRE(producers.add(x, input(0)));
  at::Tensor a = x * 2;
  at::Tensor b = x.exp();
  producers.add(a, call(1));
  producers.add(b, call(2));
  CHECK(*producers.sources(a) == std::vector<FlowEnd>{call(1)});
  at::Tensor out = a.clone();
  out += b.view({3, 1}).squeeze(1);
  CHECK(*producers.sources(out) == (std::vector<FlowEnd>{call(1), call(2)}));
  CHECK(*producers.sources(x + 1) == std::vector<FlowEnd>{input(0)});
}

TEST_CASE("outputs of one node are told apart by slot") {
  AutogradProducers producers;
  at::Tensor x = torch::randn({4}, torch::requires_grad()) * 1;
  auto parts = x.chunk(2);
  producers.add(parts[0], call(1));
  producers.add(parts[1], call(2));
  CHECK(*producers.sources(parts[1].relu()) == std::vector<FlowEnd>{call(2)});
}

TEST_CASE("a tensor without autograd history has no sources here") {
  AutogradProducers producers;
  CHECK_FALSE(producers.sources(torch::ones({2})).has_value());
  CHECK_FALSE(producers.add(torch::ones({2}), call(1)));
}
