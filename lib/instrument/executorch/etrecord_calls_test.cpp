#include "instrument/executorch/etrecord_calls.h"

#include <doctest/doctest.h>

using namespace modrec;

namespace {

EtRecordNode node(int64_t handle, std::vector<std::string> paths, Shape shape) {
  EtRecordNode n{handle, {}, std::move(shape)};
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

}  // namespace

TEST_CASE("the tree: the stacks' modules, in the order first met") {
  const ModuleTree tree = etrecord_tree(record(), "Net");
  REQUIRE(tree.modules.size() == 6);
  CHECK(tree.modules[1].path == "block");
  CHECK(tree.modules[2].path == "block.conv");
  CHECK(tree.modules[2].type == "conv");  // the last component of its class, "m.block.conv"
  CHECK(tree.modules[2].parent == 1);
  CHECK(tree.modules[2].depth == 2);
  CHECK(tree.modules[4].path == "fc");
}

TEST_CASE("calls return their last node's logged value; an unlogged view sees the one before") {
  const EtRecord r = record();
  const ModuleTree tree = etrecord_tree(r, "Net");
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
}

TEST_CASE("a call none of whose values was logged (a delegate ran it) returns none") {
  const EtRecord r = record();
  const std::vector<EtCall> calls = etrecord_calls(r, etrecord_tree(r, "Net"), {});
  REQUIRE(calls.size() == 5);
  for (const EtCall& c : calls) CHECK(c.output == -1);
}
