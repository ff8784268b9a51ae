#include "instrument/pt2/untold_gradients.h"

#include <doctest/doctest.h>

#include "instrument/pt2/call_plan.h"

using namespace modrec;
using namespace modrec::pt2;

namespace {

Argument tensor_arg(const std::string& name) {
  return {Argument::Kind::tensor, {name}, {}, {}, {}};
}

Node node(const std::string& name, const std::vector<std::string>& args) {
  Node n{name, "torch.ops.aten.x.default", {}, {tensor_arg(name)}, {}, {}};
  for (const std::string& a : args) n.inputs.push_back({"self", tensor_arg(a), false});
  return n;
}

// forward(x): h = self.stem(x); y = self.skip(h) (an Identity: no node); then `nodes` and the
// user output `result`. The plan as noted_calls.h makes it: skip takes and returns h (`linear`).
struct Net {
  Program program;
  CallPlan plan;
  ModuleTree tree;

  Net(std::vector<Node> after, const std::string& result) {
    program.nodes = {node("linear", {"x"})};
    for (Node& n : after) program.nodes.push_back(std::move(n));
    program.inputs = {{InputSpec::Kind::user_input, "x", "", {}}};
    program.outputs = {{tensor_arg(result), true, ""}};
    plan.calls = {
        {0, -1, {"x"}, {result}}, {1, 0, {"x"}, {"linear"}}, {2, 0, {"linear"}, {"linear"}}};
    plan.sources.resize(program.nodes.size());
    for (const char* path : {"", "stem", "skip"}) tree.modules.push_back(Module{.path = path});
  }

  std::string untold(int call) {
    mark_untold_gradients(plan, program, tree);
    CHECK(plan.calls[call].untold_inputs == plan.calls[call].untold_outputs);
    return plan.calls[call].untold_outputs;
  }
};

}  // namespace

TEST_CASE("a call returning its argument, one value with one use: its gradients are told") {
  CHECK(Net({node("relu", {"linear"})}, "relu").untold(2).empty());
  CHECK(Net({}, "linear").untold(2).empty());  // the result is forward's
}

TEST_CASE("the value used more than once: the call's gradients are untold, and why") {
  // y + h, or y * y: the graph has add(linear, linear) either way.
  CHECK(Net({node("add", {"linear", "linear"})}, "add").untold(2) ==
        "skip's argument and result are one value of the .pt2 graph (linear), used 2 times: its "
        "gradient would sum every use, where eager hooks see only the result's");
  // One node's use and forward's result; a node reading it under another name (CallPlan::sources:
  // a no-op aten.to made elsewhere).
  CHECK(Net({node("relu", {"linear"})}, "linear").untold(2).find("used 2 times") !=
        std::string::npos);
  Net renamed({node("relu", {"linear"}), node("mul", {"to"})}, "mul");
  renamed.plan.sources[2]["to"] = "linear";
  CHECK(renamed.untold(2).find("used 2 times") != std::string::npos);
}

TEST_CASE("calls that make their results, and the root, are never marked") {
  Net n({node("add", {"linear", "linear"}), node("mul", {"x", "add"})}, "x");
  n.plan.calls[0].outputs = {"x"};  // forward(x) returns x, also used by a node
  CHECK(n.untold(0).empty());
  CHECK(n.untold(1).empty());  // stem makes linear, used twice
}

TEST_CASE("a call returning one value at several places: its output gradients are untold") {
  // stem returns linear twice (`return h, (h,)`), each place used apart in eager PyTorch.
  Net twice({node("add", {"linear", "linear"})}, "add");
  twice.plan.calls[1].outputs = {"linear", "linear"};
  mark_untold_gradients(twice.plan, twice.program, twice.tree);
  CHECK(twice.plan.calls[1].untold_outputs ==
        "stem returns one tensor at several places, one value of the .pt2 graph (linear): which "
        "place each use takes is not told, where eager hooks see each place's gradient apart; "
        "modrec.export of this modrec tells them apart");
  CHECK(twice.plan.calls[1].untold_inputs.empty());
  // Used once: which place that use took is not told either.
  Net once({node("relu", {"linear"})}, "relu");
  once.plan.calls[1].outputs = {"linear", "linear"};
  mark_untold_gradients(once.plan, once.program, once.tree);
  CHECK_FALSE(once.plan.calls[1].untold_outputs.empty());
}
