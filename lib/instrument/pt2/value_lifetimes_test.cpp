#include "instrument/pt2/value_lifetimes.h"

#include <doctest/doctest.h>

using namespace modrec::pt2;

namespace {

Argument tensor(const std::string& name) { return {Argument::Kind::tensor, {name}, {}, {}, {}}; }

Node node(const std::string& name, const std::vector<std::string>& reads,
          const std::vector<std::string>& makes) {
  Node n;
  n.name = name;
  for (const std::string& r : reads) n.inputs.push_back({"self", tensor(r), false});
  for (const std::string& m : makes) n.outputs.push_back(tensor(m));
  return n;
}

}  // namespace

TEST_CASE("a value goes after its last reader; one no one reads, after its maker; outputs stay") {
  // a = f(x); b, dead = g(a); c = h(a, b) -> c. Call 1 starts before g (reading a) and ends
  // before h (reading b); h reads x under the name y (a no-op .to's source).
  const std::vector<Node> nodes{node("f", {"x"}, {"a"}), node("g", {"a"}, {"b", "dead"}),
                                node("h", {"a", "y"}, {"c"})};
  CallPlan plan;
  plan.calls.resize(2);
  plan.calls[1].inputs = {"a"};
  plan.calls[1].outputs = {"b"};
  plan.events_before = {{}, {{1, true}}, {{1, false}}, {}};
  plan.sources = {{}, {}, {{"y", "x"}}};
  const auto frees = last_uses(nodes, plan, names_of({tensor("c")}));
  REQUIRE(frees.size() == 3);
  CHECK(frees[0].empty());
  CHECK(frees[1] == std::vector<std::string>{"dead"});
  CHECK(frees[2] == std::vector<std::string>{"a", "b", "x"});
}

TEST_CASE("what a call's end after the last node reads stays") {
  const std::vector<Node> nodes{node("f", {"x"}, {"a"})};
  CallPlan plan;
  plan.calls.resize(2);
  plan.calls[1].outputs = {"a"};
  plan.events_before = {{{1, true}}, {{1, false}}};
  plan.sources = {{}};
  const auto frees = last_uses(nodes, plan, {});
  CHECK(frees[0] == std::vector<std::string>{"x"});
}

TEST_CASE("an in_spec of the notes is read at the call's start") {
  const std::vector<Node> nodes{node("f", {"x"}, {"a"}), node("g", {"a"}, {"b"})};
  CallPlan plan;
  plan.calls.resize(2);
  // forward((x, 1))
  plan.calls[1].in_spec = {{ArgumentTuple{{{GraphValue{"x"}}, {NotedConstant{int64_t{1}}}}}}};
  plan.events_before = {{}, {{1, true}}, {{1, false}}};
  plan.sources = {{}, {}};
  const auto frees = last_uses(nodes, plan, {"b"});
  CHECK(frees[0] == std::vector<std::string>{});
  CHECK(frees[1] == std::vector<std::string>{"a", "x"});
}
