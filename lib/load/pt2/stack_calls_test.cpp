#include "load/pt2/stack_calls.h"

#include <doctest/doctest.h>

using namespace modrec;
using namespace modrec::pt2;

namespace {

// The root, a, a.b and c.
ModuleTree tree() {
  ModuleTree t;
  for (const char* path : {"", "a", "a.b", "c"}) t.modules.push_back(Module{path});
  return t;
}

std::vector<StackEntry> stack(const std::vector<std::string>& keys) {
  std::vector<StackEntry> out;
  for (const std::string& key : keys) out.push_back({key, key.substr(0, key.find('@')), "m"});
  return out;
}

}  // namespace

TEST_CASE("runs of nodes sharing a stack entry are calls; a key apart is a call apart") {
  // a(a.b(n0), n1); a again (n2); n3 in the root; c(n4) with a marker naming no module
  const StackCalls calls = stack_calls({stack({"a", "a.b"}),
                                        stack({"a"}),
                                        stack({"a@1"}),
                                        {},
                                        stack({"c", "_empty_nn_module_stack_from_metadata_hook"})},
                                       tree());
  REQUIRE(calls.calls.size() == 5);
  CHECK(calls.calls[1].module == 1);
  CHECK(calls.calls[2].module == 2);
  CHECK(calls.calls[2].parent == 1);
  CHECK(calls.calls[3].module == 1);  // a's second call
  CHECK(calls.calls[4].module == 3);
  CHECK(calls.calls[4].parent == 0);
  CHECK(calls.events_before[0] == std::vector<CallEvent>{{1, true}, {2, true}});
  CHECK(calls.events_before[2] == std::vector<CallEvent>{{1, false}, {3, true}});
  CHECK(calls.events_before[5] == std::vector<CallEvent>{{4, false}});
  CHECK(calls.chains[1] == std::vector<int>{0, 1});
  CHECK(calls.chains[3] == std::vector<int>{0});
  CHECK(calls.chains[4] == std::vector<int>{0, 4});
}

TEST_CASE("a subgraph's calls start and end inside those its node runs in, which are call 0") {
  const StackCalls calls =
      stack_calls({stack({"a", "a.b"}), {}, stack({"c"})}, tree(), stack({"a"}));
  REQUIRE(calls.calls.size() == 2);
  CHECK(calls.calls[1].module == 2);
  CHECK(calls.chains[0] == std::vector<int>{0, 0, 1});  // the root's and a's calls are call 0
  CHECK(calls.chains[1] == std::vector<int>{0, 0});
  CHECK(calls.chains[2] == std::vector<int>{0, 0});  // outside the base: in the base's calls
  CHECK(calls.events_before[1] == std::vector<CallEvent>{{1, false}});
  CHECK(calls.events_before[3] == std::vector<CallEvent>{});
}
