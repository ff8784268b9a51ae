// The labeler, numbering calls one at a time, must give every call the label build_rows gives
// its row once the whole pass is known (build_rows follows torchinfo, checked in rows_test).
#include "labels/call_labeler.h"

#include <doctest/doctest.h>

#include <random>

#include "summary/rows.h"
#include "summary/test_fixtures.h"

using namespace modrec;
using namespace modrec::testing;

namespace {

std::vector<std::string> row_labels_of_calls(const ModuleTree& tree, const CallTrace& trace) {
  std::vector<std::string> out(trace.calls.size());
  for (const LayerRow& row : build_rows(tree, trace))
    if (row.call >= 0) out[row.call] = row.label;
  return out;
}

// A tree of nested containers four deep, three children each.
TreeBuilder nested_tree() {
  TreeBuilder b("Net");
  std::vector<int> level{0};
  for (int depth = 1; depth <= 4; ++depth) {
    std::vector<int> next;
    for (int parent : level)
      for (int i = 0; i < 3; ++i)
        next.push_back(b.add(parent, std::to_string(i), depth == 4 ? "Linear" : "Sequential",
                             depth == 4 ? linear(2, 2) : std::vector<Param>{}));
    level = next;
  }
  return b;
}

// Calls of random modules in random nesting: containers called or skipped, modules reused.
CallTrace random_trace(const ModuleTree& tree, unsigned seed) {
  std::mt19937 rng(seed);
  TraceBuilder t;
  t.enter(0, value({1, 2}));
  for (int i = 0; i < 60; ++i) {
    const int module = 1 + static_cast<int>(rng() % (tree.modules.size() - 1));
    if (rng() % 4 == 0 && t.open.size() > 1) t.exit(value({1, 2}));
    t.enter(module, value({1, 2}));
    if (rng() % 2) t.exit(value({1, 2}));
  }
  while (!t.open.empty()) t.exit(value({1, 2}));
  return t.trace;
}

}  // namespace

TEST_CASE("each call's label, known when it starts, is the label of its row in the full table") {
  const TreeBuilder b = nested_tree();
  for (unsigned seed = 0; seed < 50; ++seed) {
    CAPTURE(seed);
    const CallTrace trace = random_trace(b.tree, seed);
    CallLabeler labeler(b.tree);
    std::vector<std::string> as_they_start;
    for (const Call& call : trace.calls) as_they_start.push_back(labeler.add(call.module));
    CHECK(as_they_start == row_labels_of_calls(b.tree, trace));
    CHECK(labeler.labels() == as_they_start);
  }
}

TEST_CASE("a container skipped between its children's calls numbers like torchinfo") {
  TreeBuilder b("Net");
  const int list = b.add(0, "items", "ModuleList");
  const int a = b.add(list, "0", "Linear", linear(2, 2));
  const int mid = b.add(0, "mid", "ReLU");
  const int c = b.add(list, "1", "Linear", linear(2, 2));
  CallLabeler labeler(b.tree);
  CHECK(labeler.add(0) == "0-1");
  CHECK(labeler.add(a) == "2-1");  // items gets the container row 1-1 before it
  CHECK(labeler.add(mid) == "1-2");
  CHECK(labeler.add(c) == "2-2");  // items inserted again: 1-3
}

TEST_CASE("a whole pass's labels are those of its rows") {
  const TreeBuilder b = nested_tree();
  for (unsigned seed = 0; seed < 10; ++seed) {
    const CallTrace trace = random_trace(b.tree, seed);
    CHECK(call_labels(b.tree, trace) == row_labels_of_calls(b.tree, trace));
  }
}
