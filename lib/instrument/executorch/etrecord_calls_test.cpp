#include "instrument/executorch/etrecord_calls.h"

#include <doctest/doctest.h>

using namespace modrec;

namespace {

EtRecordNode node(int64_t handle, std::vector<std::string> paths, Shape shape) {
  EtRecordNode n{handle, {}, std::move(shape), 7};
  for (const std::string& p : paths) n.stack.push_back({"L__self__" + p, p, "m." + p});
  return n;
}

// Net > block (conv, bn) then fc (a Linear: permute and addmm, one debug handle) after a flatten
// view memory planning made an alias (no instruction).
EtRecord record() {
  EtRecord r;
  r.nodes = {node(1, {"block", "block.conv"}, {2, 4, 8, 8}),
             node(2, {"block", "block.bn"}, {2, 4, 8, 8}),
             node(3, {}, {2, 256}),
             node(4, {"fc"}, {256, 5}),
             node(4, {"fc"}, {2, 5}),
             node(5, {"head"}, {2, 5}),
             node(6, {"head"}, {10})};
  r.handles = {{0, {1}}, {1, {2}}, {2, {4}}, {3, {4}}, {4, {5}}};
  return r;
}

// The tree of record()'s modules (the ETRecord's, read by exported_tree in load/).
ModuleTree tree() {
  ModuleTree t;
  const auto add = [&](const std::string& path, int parent) {
    const int depth = parent < 0 ? 0 : t.modules[parent].depth + 1;
    t.modules.push_back(Module{path, path, path, "", depth, parent, {}, {}, {}});
  };
  add("", -1);
  for (const char* path : {"block", "block.conv", "block.bn", "fc", "head"})
    add(path, std::string(path).find('.') == std::string::npos ? 0 : 1);
  return t;
}

}  // namespace

TEST_CASE("calls return their last node's logged value; an unlogged view sees the one before") {
  const EtRecord r = record();
  const ModuleTree tree = ::tree();
  const std::vector<LoggedOutput> logged = {
      {0, {2, 4, 8, 8}}, {1, {2, 4, 8, 8}}, {2, {256, 5}}, {3, {2, 5}}, {4, {2, 5}}};
  const std::vector<EtCall> calls = etrecord_calls(r, tree, logged);
  REQUIRE(calls.size() == 5);
  CHECK(calls[0].module == tree.find("block"));
  CHECK(calls[0].output == 1);  // bn's
  CHECK(calls[1].parent == 0);
  CHECK(calls[1].output == 0);
  CHECK(calls[3].module == tree.find("fc"));
  CHECK(calls[3].output == 3);  // addmm's, paired by shape within the handle
  CHECK(calls[3].parent == -1);
  // head's last node (a [10] view of the [2, 5] its instruction logged) was no instruction
  CHECK(calls[4].output == 4);
  CHECK(calls[4].shape == Shape{10});
  CHECK(calls[4].node == 6);  // the edge program's node whose output it returned
}

TEST_CASE("a call none of whose values was logged (a delegate ran it) returns none") {
  const EtRecord r = record();
  const std::vector<EtCall> calls = etrecord_calls(r, tree(), {});
  REQUIRE(calls.size() == 5);
  for (const EtCall& c : calls) CHECK(c.output == -1);
}
