#include "instrument/pt2/noted_calls.h"

#include <doctest/doctest.h>

#include "instrument/pt2/call_plan.h"

using namespace modrec;
using namespace modrec::pt2;

namespace {

// forward(x): y = self.stem(x); y = self.skip(y)  (an Identity); return self.act(y)
// as torch.export's graph has it (no node for skip), and modrec.export's notes of it.
struct Net {
  Program program;
  ModuleTree tree;
  ExportNotes notes;
};

Argument tensor_arg(const std::string& name) {
  return {Argument::Kind::tensor, {name}, {}, {}, {}};
}

Node node(const std::string& name, const std::string& in, const std::string& path) {
  Node n{name,
         "torch.ops.aten.x.default",
         {{"self", tensor_arg(in), false}},
         {tensor_arg(name)},
         {{"L__self__", "", "Net"}}};
  n.module_stack.push_back({"L__self__" + path, path, "torch.nn." + path});
  return n;
}

// A signature's in_spec of one leaf per argument: `by_place` positional, `by_name` keyword.
TreeSpec arguments(const std::vector<std::string>& by_place,
                   const std::vector<std::string>& by_name) {
  using T = TreeSpec::Type;
  return {T::tuple,
          {},
          {{T::tuple, {}, std::vector<TreeSpec>(by_place.size())},
           {T::dict, by_name, std::vector<TreeSpec>(by_name.size())}}};
}

NotedValue tensor(int id, int version = 0) { return {NotedTensor{id, {2, 3}, "float32", version}}; }

const NotedValue kNone{NotedConstant{}};

// The constant a call's argument holds; nullopt for another argument.
std::optional<NotedConstant> constant_of(const CallArgument& arg) {
  const auto* constant = std::get_if<NotedConstant>(&arg.held);
  return constant ? std::optional(*constant) : std::nullopt;
}

Net net() {
  Net net;
  net.program.nodes = {node("linear", "x", "stem"), node("relu", "linear", "act")};
  net.program.inputs = {{InputSpec::Kind::user_input, "x", "", {}}};
  net.program.outputs = {{tensor_arg("relu"), true, ""}};
  for (const char* v : {"x", "linear", "relu"}) net.program.tensor_values[v].sizes = {2, 3};
  for (const char* path : {"", "stem", "skip", "act"}) {
    Module m;
    m.path = path;
    if (!m.path.empty()) {
      m.parent = 0;
      m.depth = 1;
    }
    net.tree.modules.push_back(m);
  }
  const auto call = [](const char* path, int parent, int in, int out) {
    return NotedCall{path, parent, {"input"}, {tensor(in)}, tensor(out)};
  };
  net.notes.calls = {call("", -1, 0, 2), call("stem", 0, 0, 1), call("skip", 0, 1, 1),
                     call("act", 0, 1, 2)};
  return net;
}

}  // namespace

TEST_CASE("a call that runs no operator starts and ends where eager PyTorch made it") {
  const Net n = net();
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  REQUIRE(plan.calls.size() == 4);
  CHECK(plan.calls[2].module == 2);
  CHECK(plan.calls[2].inputs == std::vector<std::string>{"linear"});
  CHECK(plan.calls[2].outputs == std::vector<std::string>{"linear"});  // its result is its input
  CHECK(plan.calls[3].inputs == std::vector<std::string>{"linear"});
  // stem ends, skip starts and ends, act starts: all before the second node.
  CHECK(plan.events_before[1] ==
        std::vector<CallEvent>{{1, false}, {2, true}, {2, false}, {3, true}});
  CHECK(plan.events_before[2] == std::vector<CallEvent>{{3, false}});
}

TEST_CASE("notes that do not match the graph leave the program's plan as it is") {
  Net n = net();
  const CallPlan without = plan_calls(n.program, n.tree);
  SUBCASE("a call the graph has and the notes lack") { n.notes.calls.pop_back(); }
  SUBCASE("a call of a module the program lacks") { n.notes.calls[2].path = "gone"; }
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  CHECK(plan.calls.size() == without.calls.size());
  CHECK(plan.events_before == without.events_before);
}

TEST_CASE("a call given one tensor several times has untold input gradients, told outputs") {
  Net n = net();
  n.notes.calls[3].args = {tensor(1), tensor(1)};  // act(y, y): eager hooks see two gradients
  n.notes.calls[3].arg_names = {"input", "other"};
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  REQUIRE(plan.calls.size() == 4);
  CHECK(plan.calls[3].untold_inputs.find("act is given one tensor several times") == 0);
  CHECK(plan.calls[3].untold_outputs.empty());
  for (int call : {1, 2}) CHECK(plan.calls[call].untold_inputs.empty());
}

// The plan of net() with skip left out: stem, then act.
void check_without_skip(const CallPlan& plan) {
  REQUIRE(plan.calls.size() == 3);
  CHECK(plan.calls[2].module == 3);
  CHECK(plan.calls[2].parent == 0);
  CHECK(plan.events_before[1] == std::vector<CallEvent>{{1, false}, {2, true}});
  CHECK(plan.events_before[2] == std::vector<CallEvent>{{2, false}});
}

TEST_CASE("a call without nodes that cannot be placed is left out alone") {
  Net n = net();
  SUBCASE("it returns a tensor it was not given") { n.notes.calls[2].output = tensor(7); }
  SUBCASE("its tensor was changed in place since") { n.notes.calls[2].args[0] = tensor(1, 1); }
  SUBCASE("no graph call takes or returns its tensor") {
    n.notes.calls[2].args = {tensor(9)};
    n.notes.calls[2].output = tensor(9);
  }
  check_without_skip(plan_calls(n.program, n.tree, &n.notes));
}

TEST_CASE("the archive's call signatures place calls the notes alone cannot") {
  Net n = net();
  // skip(q) where no graph call takes q (timm's attention: q_norm(q) goes to an operator inside
  // attn), and a second call of skip on act's result: export kept both calls' signatures.
  n.notes.calls[2].args = {tensor(9)};
  n.notes.calls[2].output = tensor(9);
  n.notes.calls.push_back({"skip", 0, {"input"}, {tensor(10)}, tensor(10)});
  n.program.call_signatures["skip"] = {{tensor_arg("linear")}, {tensor_arg("linear")}};
  n.program.call_signatures["skip@1"] = {{tensor_arg("relu")}, {tensor_arg("relu")}};
  SUBCASE("both placed") {
    const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
    REQUIRE(plan.calls.size() == 5);
    CHECK(plan.calls[2].inputs == std::vector<std::string>{"linear"});
    CHECK(plan.calls[4].inputs == std::vector<std::string>{"relu"});
    CHECK(plan.calls[4].outputs == std::vector<std::string>{"relu"});
    CHECK(plan.events_before[2] == std::vector<CallEvent>{{3, false}, {4, true}, {4, false}});
  }
  SUBCASE("a signature whose tensors are not the eager ones is not used") {
    n.program.call_signatures["skip@1"].inputs.push_back(tensor_arg("x"));
    const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
    CHECK(plan.calls.size() == 4);  // the second call of skip is left out, the first stands
    CHECK(plan.calls[2].inputs == std::vector<std::string>{"linear"});
  }
}

TEST_CASE("a call's signature gives eager forward's arguments, an unused one too") {
  Net n = net();
  // act(y, x) uses y only (a rotary embedding given the hidden states for their dtype): the
  // graph's call reads linear; eager hooks see both.
  n.notes.calls[3].args = {tensor(1), tensor(0)};
  n.notes.calls[3].arg_names = {"input", "unused"};
  const CallPlan without = plan_calls(n.program, n.tree, &n.notes);
  CHECK(without.calls[3].inputs == std::vector<std::string>{"linear"});
  n.program.call_signatures["act"] = {{tensor_arg("linear"), tensor_arg("x")},
                                      {tensor_arg("relu")}};
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  CHECK(plan.calls[3].inputs == std::vector<std::string>{"linear", "x"});
  // an archive exported with the signatures, without notes: the same arguments
  const CallPlan plain = plan_calls(n.program, n.tree);
  REQUIRE(plain.calls.size() == 3);
  CHECK(plain.calls[2].inputs == std::vector<std::string>{"linear", "x"});
}

TEST_CASE("results take the notes' structure: a tuple holding None, the root's dict") {
  Net n = net();
  // stem returns (y, None, None), as a T5 attention does; forward returns {"logits": y}
  n.notes.calls[1].output = {NotedTuple{{tensor(1), kNone, kNone}}};
  n.notes.calls[0].output = {NotedDict{{"logits"}, {tensor(2)}}};
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  REQUIRE(plan.calls[1].out_spec);
  CHECK(plan.calls[1].out_spec->children.size() == 3);
  CHECK(plan.calls[1].out_spec->children[2].type == TreeSpec::Type::none);
  REQUIRE(plan.calls[0].out_spec);
  CHECK(plan.calls[0].out_spec->keys == std::vector<std::string>{"logits"});
  CHECK(plan.calls[0].outputs == std::vector<std::string>{"relu"});
}

TEST_CASE("a call's signature tells which of its arguments were passed by position") {
  Net n = net();
  const Argument none{Argument::Kind::none, {}, {}, {}, {}};
  SUBCASE("act(input=y, scale=None): by keyword only, its arguments the notes'") {
    n.notes.calls[3].args = {tensor(1), kNone};
    n.notes.calls[3].arg_names = {"input", "scale"};
    n.program.call_signatures["act"] = {{tensor_arg("linear"), none}, {tensor_arg("relu")}};
    n.program.call_signatures["act"].in_spec = arguments({}, {"input", "scale"});
    const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
    REQUIRE(plan.calls[3].in_spec);
    CHECK(plan.calls[3].in_spec->size() == 2);
    CHECK(plan.calls[3].positional == 0);
    CHECK(plan_calls(n.program, n.tree).calls[2].positional == 0);  // without notes
  }
  SUBCASE("act(y, None, mask=x): the signature's tensors, the first by position") {
    n.notes.calls[3].args = {tensor(1), kNone, tensor(0)};
    n.notes.calls[3].arg_names = {"input", "scale", "mask"};
    n.program.call_signatures["act"] = {{tensor_arg("linear"), none, tensor_arg("x")},
                                        {tensor_arg("relu")}};
    n.program.call_signatures["act"].in_spec = arguments({"input", "scale"}, {"mask"});
    CHECK(plan_calls(n.program, n.tree, &n.notes).calls[3].positional == 2);  // y, None
    const CallPlan plain = plan_calls(n.program, n.tree);
    CHECK(plain.calls[2].inputs == std::vector<std::string>{"linear", "x"});
    CHECK(plain.calls[2].positional == 1);  // linear
  }
  SUBCASE("act(input=y, scale=None) without signature: the notes' count") {
    n.notes.calls[3].args = {tensor(1), kNone};
    n.notes.calls[3].arg_names = {"input", "scale"};
    n.notes.calls[3].positional = 0;
    CHECK(plan_calls(n.program, n.tree, &n.notes).calls[3].positional == 0);
    n.notes.calls[2].positional = 1;  // skip(y), which runs no operator
    CHECK(plan_calls(n.program, n.tree, &n.notes).calls[2].positional == 1);
  }
  SUBCASE("an archive whose signature has no in_spec does not tell") {
    n.program.call_signatures["act"] = {{tensor_arg("linear")}, {tensor_arg("relu")}};
    CHECK_FALSE(plan_calls(n.program, n.tree, &n.notes).calls[3].positional);
    CHECK_FALSE(plan_calls(n.program, n.tree).calls[2].positional);
  }
}

TEST_CASE("a call's signature gives its arguments by place and by name, eager's Nones kept") {
  // act(y, mask=None, pos=x, **{"extra": x}) as a Hugging Face decoder layer is called: export
  // recorded a mask tensor (transformers makes one only when exporting) where eager gave None,
  // and its in_spec is ((y,), {"mask", "pos", "extra"}); eager hooks see y, x, x.
  Net n = net();
  n.notes.calls[3].args = {tensor(1), kNone, tensor(0), {NotedDict{{"extra"}, {tensor(0)}}}};
  n.notes.calls[3].arg_names = {"input", "mask", "pos", "kwargs"};
  CallSignature& sig = n.program.call_signatures["act"];
  sig = {{tensor_arg("linear"), tensor_arg("relu"), tensor_arg("x"), tensor_arg("x")},
         {tensor_arg("relu")}};
  sig.in_spec = arguments({"input"}, {"mask", "pos", "extra"});
  SUBCASE("placed argument by argument") {
    const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
    CHECK(plan.calls[3].inputs == std::vector<std::string>{"linear", "x", "x"});
    REQUIRE(plan.calls[3].in_spec);
    REQUIRE(plan.calls[3].in_spec->size() == 4);
    CHECK(constant_of((*plan.calls[3].in_spec)[1]) == NotedConstant{});
  }
  SUBCASE("an eager tensor where the signature has one of another shape: not by name") {
    n.program.tensor_values["x"].sizes = {5};
    const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
    CHECK(plan.calls[3].inputs != std::vector<std::string>{"linear", "x", "x"});
  }
}

TEST_CASE("one module object at several paths: its calls matched by object, named as hooked") {
  Net n = net();
  // act is stem (`self.act = self.stem`): eager hooks name both calls by the first path, the
  // graph each by the path it was made through, torchinfo's hooks by the last.
  n.tree.modules[3].same_as = 1;
  n.notes.calls[3].path = "stem";
  // export's signatures are keyed by the path a call was made through: act's is the second
  // call's, and a stem@1 (which export never writes here) is not taken for it
  n.program.call_signatures["act"] = {{tensor_arg("linear")}, {tensor_arg("relu")}};
  n.program.call_signatures["stem@1"] = {{tensor_arg("x")}, {tensor_arg("relu")}};
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  REQUIRE(plan.calls.size() == 4);
  CHECK(plan.calls[1].module == 3);
  CHECK(plan.calls[3].module == 3);
  CHECK(plan.calls[2].module == 2);  // skip, placed as before
  CHECK(plan.calls[3].inputs == std::vector<std::string>{"linear"});
}

TEST_CASE("a call a higher-order operator's subgraph makes is left to the subgraph") {
  Net n = net();
  // act called in a torch.cond branch of a strict export: the cond node carries the root's
  // stack, the taken branch's node act's, the other branch's the root's. The notes stand (skip
  // placed); act is planned when its branch runs (plan_subgraph), not in the top graph's plan.
  Node cond{"relu",
            "torch.ops.higher_order.cond",
            {{"operands", tensor_arg("linear"), false}},
            {tensor_arg("relu")},
            {{"L__self__", "", "Net"}}};
  cond.graphs.push_back({{"y"}, {tensor_arg("inner")}, {node("inner", "y", "act")}});
  Node other = node("other", "y", "");
  other.module_stack.pop_back();
  cond.graphs.push_back({{"y"}, {tensor_arg("other")}, {other}});
  n.program.nodes[1] = cond;
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  REQUIRE(plan.calls.size() == 3);
  CHECK(plan.calls[1].module == 1);
  CHECK(plan.calls[2].module == 2);  // skip
}

TEST_CASE("a call given no tensor takes eager's arguments, its values recorded") {
  // act(3, None), as timm's positional encoding pos_embd(B, H, W) is called
  Net n = net();
  n.notes.calls[3].args = {{NotedConstant{int64_t{3}}}, kNone};
  n.notes.calls[3].arg_names = {"size", "scale"};
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  CHECK(plan.calls[3].inputs.empty());
  REQUIRE(plan.calls[3].in_spec);
  REQUIRE(plan.calls[3].in_spec->size() == 2);
  CHECK(constant_of((*plan.calls[3].in_spec)[0]) == NotedConstant{int64_t{3}});
  CHECK(constant_of((*plan.calls[3].in_spec)[1]) == NotedConstant{});
}

TEST_CASE("tensors of one shape a call's side cannot tell apart are placed by identity") {
  // forward(x, m): act(stem(x), m), act's node reading m first; no call signature kept. act's
  // two arguments have one shape: which is which, another call's side tells (the notes number a
  // tensor by the object it is): stem's result is `linear`, so act's other argument is m.
  Net n = net();
  Node act = n.program.nodes[1];
  act.inputs = {{"self", tensor_arg("m"), false}, {"other", tensor_arg("linear"), false}};
  n.program.nodes[1] = act;
  n.program.inputs.push_back({InputSpec::Kind::user_input, "m", "", {}});
  n.program.tensor_values["m"].sizes = {2, 3};
  n.notes.calls[0].args = {tensor(0), tensor(5)};
  n.notes.calls[0].arg_names = {"x", "m"};
  n.notes.calls[3].args = {tensor(1), tensor(5)};
  n.notes.calls[3].arg_names = {"input", "mask"};
  const CallPlan plan = plan_calls(n.program, n.tree, &n.notes);
  REQUIRE(plan.calls.size() == 4);
  CHECK(plan.calls[3].inputs == std::vector<std::string>{"linear", "m"});  // forward's order
  CHECK(plan.calls[0].inputs == std::vector<std::string>{"x", "m"});
}
