#include "instrument/pt2/call_plan.h"

#include <doctest/doctest.h>

#include "load/pt2/exported_archive.h"
#include "load/pt2/exported_tree.h"
#include "util/python_test_fixtures.h"

using namespace modrec;

namespace modrec::pt2 {
// For doctest's messages: c10's operator<< for vectors (the torch headers) needs its items'.
std::ostream& operator<<(std::ostream& out, const CallEvent& e) {
  return out << (e.enter ? "enter " : "leave ") << e.call;
}
}  // namespace modrec::pt2

namespace {

// load/pt2/test_fixtures.py's Net: stem, shared, b(conv, bn, id, act) + residual, shared, fc.
const pt2::ExportedArchive& net() {
  static const test::TempDir dir("pt2plan", "/lib/load/pt2/test_fixtures.py");
  static const pt2::ExportedArchive archive = pt2::read_exported(dir.path + "/net.pt2");
  return archive;
}

std::vector<std::string> paths(const pt2::CallPlan& plan, const ModuleTree& tree) {
  std::vector<std::string> out;
  for (const auto& call : plan.calls) out.push_back(tree.modules[call.module].path);
  return out;
}

}  // namespace

TEST_CASE("calls start in the order eager forward makes them, a module called twice twice") {
  const ModuleTree tree = pt2::exported_tree(net());
  const pt2::CallPlan plan = pt2::plan_calls(net().program, tree);
  // b.id runs no operator: the graph has no trace of its call.
  CHECK(paths(plan, tree) == std::vector<std::string>{"", "stem", "shared", "b", "b.conv", "b.bn",
                                                      "b.act", "shared", "fc"});
  CHECK(plan.calls[4].parent == 3);
  CHECK(plan.calls[7].parent == 0);
  CHECK(plan.events_before.size() == net().program.nodes.size() + 1);
  CHECK(plan.events_before.back() == std::vector<pt2::CallEvent>{{8, false}});
}

TEST_CASE("a call's inputs come from outside it, its outputs are used outside it") {
  const ModuleTree tree = pt2::exported_tree(net());
  const pt2::CallPlan plan = pt2::plan_calls(net().program, tree);
  const auto &shared = plan.calls[2], &block = plan.calls[3], &conv = plan.calls[4];
  CHECK(block.inputs == shared.outputs);  // parameters are no inputs
  CHECK(conv.inputs == block.inputs);
  REQUIRE(block.outputs.size() == 1);  // the residual sum, not the ReLU inside
  CHECK(block.outputs == plan.calls[7].inputs);
  CHECK(plan.calls[0].outputs == plan.calls[8].outputs);
  CHECK(plan.calls[6].outputs.size() == 1);
}

TEST_CASE("a subgraph's calls start and end in it; those open at its node are its call 0") {
  // test_fixtures.py's NoGradNet: rot's no_grad forward is one wrap_with_set_grad_enabled node
  // inside rot's call, its subgraph calling rot.proj.
  static const test::TempDir dir("pt2plan", "/lib/load/pt2/test_fixtures.py");
  const pt2::ExportedArchive archive = pt2::read_exported(dir.path + "/no_grad.pt2");
  const ModuleTree tree = pt2::exported_tree(archive);
  const pt2::CallPlan plan = pt2::plan_calls(archive.program, tree);
  CHECK(paths(plan, tree) == std::vector<std::string>{"", "rot", "fc"});
  const pt2::Node& hop = archive.program.nodes.at(0);
  REQUIRE(hop.target == "torch.ops.higher_order.wrap_with_set_grad_enabled");
  REQUIRE(hop.graphs.size() == 1);
  CHECK(plan.calls[1].outputs.size() == 2);  // cos and sin
  const pt2::CallPlan inner = pt2::plan_subgraph(
      hop.graphs[0], {"p_rot_proj_weight", "p_rot_proj_bias"}, hop.module_stack, tree);
  CHECK(paths(inner, tree) == std::vector<std::string>{"", "rot.proj"});
  CHECK(inner.calls[1].parent == 0);
  CHECK(inner.events_before[0] == std::vector<pt2::CallEvent>{{1, true}});
  CHECK(inner.events_before.back().empty());  // proj ends before the last node; rot stays open
  CHECK(inner.calls[1].inputs == std::vector<std::string>{hop.graphs[0].inputs[0]});
}

TEST_CASE("a parameter no module inside a call holds is its argument, a tied one is not") {
  // test_fixtures.py's Reparametrized: conv's weight_norm, emb2's weight tied to emb's.
  static const test::TempDir dir("pt2plan", "/lib/load/pt2/test_fixtures.py");
  const pt2::ExportedArchive archive = pt2::read_exported(dir.path + "/reparametrized.pt2");
  const ModuleTree tree = pt2::exported_tree(archive);
  const pt2::CallPlan plan = pt2::plan_calls(archive.program, tree);
  REQUIRE(paths(plan, tree) == std::vector<std::string>{"", "conv", "conv.parametrizations.weight",
                                                        "conv.parametrizations.weight.0", "emb",
                                                        "emb2"});
  CHECK(plan.calls[2].inputs.empty());  // the ParametrizationList holds its originals
  // _WeightNorm(g, v) in named_parameters() order, though it uses v first
  CHECK(plan.calls[3].inputs ==
        std::vector<std::string>{"p_conv_parametrizations_weight_original0",
                                 "p_conv_parametrizations_weight_original1"});
  CHECK(plan.calls[4].inputs == std::vector<std::string>{"ids"});
  CHECK(plan.calls[5].inputs == std::vector<std::string>{"ids"});  // emb's weight, emb2's too
}

namespace {

std::vector<std::string> keys(const std::vector<pt2::StackEntry>& stack) {
  std::vector<std::string> out;
  for (const auto& e : stack) out.push_back(e.key);
  return out;
}

pt2::Node stacked(std::vector<pt2::StackEntry> stack) {
  pt2::Node n;
  n.module_stack = std::move(stack);
  return n;
}

}  // namespace

// Strict export of a no_grad block inside block.inner: the operator's node carries only the
// root's entry, its subgraph's nodes block.inner's (and a LayerNorm's inside it).
TEST_CASE("a higher-order operator's node runs in the calls its subgraphs' nodes all share") {
  const pt2::StackEntry root{"L__self__", "", "Net"}, block{"b", "block", "Block"},
      inner{"i", "block.inner", "Inner"}, norm{"n", "block.inner.norm", "LayerNorm"};
  pt2::Node hop = stacked({root});
  hop.graphs.push_back(
      {{}, {}, {stacked({root, block, inner, norm}), stacked({root, block, inner})}});
  CHECK(keys(pt2::running_stack(hop)) == std::vector<std::string>{"L__self__", "b", "i"});

  SUBCASE("a node whose stack is as long keeps it") {
    hop.module_stack = {root, block, inner};
    CHECK(keys(pt2::running_stack(hop)) == std::vector<std::string>{"L__self__", "b", "i"});
  }
  SUBCASE("a branch whose nodes have no stack (non-strict torch.cond) tells nothing") {
    hop.graphs.push_back({{}, {}, {stacked({})}});
    CHECK(keys(pt2::running_stack(hop)) == std::vector<std::string>{"L__self__"});
  }
  SUBCASE("subgraph stacks that are not the node's, continued, are not taken") {
    hop.module_stack = {root, norm};
    CHECK(keys(pt2::running_stack(hop)) == std::vector<std::string>{"L__self__", "n"});
  }
  SUBCASE("a node without subgraphs has its own stack") {
    CHECK(keys(pt2::running_stack(stacked({root, block}))) ==
          std::vector<std::string>{"L__self__", "b"});
  }
}
