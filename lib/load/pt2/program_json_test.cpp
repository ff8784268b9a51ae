#include "load/pt2/program_json.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "util/error.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using namespace modrec::pt2;
using modrec::testing::error_of;
using nlohmann::json;

namespace {

json tensor(const std::string& name) { return {{"as_tensor", {{"name", name}}}}; }

json node(const std::string& name, const std::string& target, json inputs, json outputs) {
  return {{"name", name}, {"target", target}, {"inputs", inputs}, {"outputs", outputs}};
}

json input(const std::string& name, json arg) { return {{"name", name}, {"arg", arg}}; }

// A program of `nodes` whose user input is x and whose output is `result`.
json program(json nodes, const std::string& result = "y") {
  return {{"schema_version", {{"major", kSchemaMajor}, {"minor", 0}}},
          {"graph_module",
           {{"graph", {{"nodes", nodes}, {"tensor_values", json::object()}}},
            {"signature",
             {{"input_specs", json::array({{{"user_input", {{"arg", {{"name", "x"}}}}}}})},
              {"output_specs", json::array({{{"user_output", {{"arg", tensor(result)}}}}})}}},
            {"module_call_graph", json::array()}}}};
}

json leaky_relu(const json& slope) {
  return program(
      json::array({node("y", "torch.ops.aten.leaky_relu.default",
                        json::array({input("self", tensor("x")), input("negative_slope", slope)}),
                        json::array({tensor("y")}))}));
}

std::string refusal(const json& doc) {
  auto [code, line] = error_of([&] { parse_program(doc, "m.pt2"); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("(m.pt2)") != std::string::npos);
  return line;
}

}  // namespace

TEST_CASE("arguments are typed as the program is read, floats JSON has no number for included") {
  const Program p = parse_program(leaky_relu({{"as_float", "-Infinity"}}), "m.pt2");
  const Argument& slope = p.nodes.at(0).inputs.at(1).value;
  CHECK(slope.kind == Argument::Kind::float_);
  CHECK(slope.floats == std::vector<double>{-INFINITY});
  CHECK(p.nodes[0].inputs[0].value.names == std::vector<std::string>{"x"});
  CHECK(std::isnan(parse_program(leaky_relu({{"as_float", "NaN"}}), "m.pt2")
                       .nodes[0]
                       .inputs[1]
                       .value.floats.at(0)));
}

TEST_CASE("a payload not of its tag's type names the node, its operator and the field") {
  const std::string line = refusal(leaky_relu({{"as_float", "many"}}));
  CHECK(line.find("node y (torch.ops.aten.leaky_relu.default)") != std::string::npos);
  CHECK(line.find("input negative_slope") != std::string::npos);
  CHECK(line.find("\"many\" where a float goes") != std::string::npos);
  CHECK(refusal(leaky_relu({{"as_int", "3"}})).find("a string where an integer goes") !=
        std::string::npos);
  CHECK(refusal(leaky_relu({{"as_tensr", {{"name", "x"}}}})).find("unknown type tag as_tensr") !=
        std::string::npos);
  CHECK(refusal(leaky_relu({{"as_tensor", 3}})).find("has no \"name\"") != std::string::npos);
}

TEST_CASE("a value read before anything defines it is refused at load, naming who reads it") {
  json nodes = json::array(
      {node("y", "torch.ops.aten.relu.default", json::array({input("self", tensor("ghost"))}),
            json::array({tensor("y")}))});
  std::string line = refusal(program(nodes));
  CHECK(line.find("node y (torch.ops.aten.relu.default): its input self reads the value ghost") !=
        std::string::npos);
  nodes[0]["inputs"] = json::array({input("self", tensor("x"))});
  CHECK(refusal(program(nodes, "nowhere")).find("the program's output reads the value nowhere") !=
        std::string::npos);
}

TEST_CASE("a subgraph sees its own inputs, and its index is its place among the node's graphs") {
  const json body = {{"inputs", json::array({tensor("a")})},
                     {"outputs", json::array({tensor("b")})},
                     {"nodes", json::array({node("b", "torch.ops.aten.relu.default",
                                                 json::array({input("self", tensor("a"))}),
                                                 json::array({tensor("b")}))})}};
  const json wrap =
      node("y", "torch.ops.higher_order.wrap_with_set_grad_enabled",
           json::array({input("enabled", {{"as_bool", false}}),
                        input("body", {{"as_graph", {{"name", "g"}, {"graph", body}}}}),
                        input("x", tensor("x"))}),
           json::array({tensor("y")}));
  const Program p = parse_program(program(json::array({wrap})), "m.pt2");
  REQUIRE(p.nodes.at(0).graphs.size() == 1);
  CHECK(p.nodes[0].inputs[1].value.kind == Argument::Kind::graph);
  CHECK(p.nodes[0].inputs[1].value.ints == std::vector<int64_t>{0});
  json outer = body;  // the subgraph reads x, a value of the graph around it
  outer["nodes"][0]["inputs"] = json::array({input("self", tensor("x"))});
  json reads_outside = wrap;
  reads_outside["inputs"][1]["arg"]["as_graph"]["graph"] = outer;
  CHECK(refusal(program(json::array({reads_outside}))).find("its input self reads the value x") !=
        std::string::npos);
}

TEST_CASE("nesting beyond the bound is refused before the JSON is parsed") {
  std::string deep;
  for (size_t i = 0; i <= kMaxJsonDepth; ++i) deep += "[";
  deep += "\"]]]\"";  // brackets inside a string do not count
  for (size_t i = 0; i <= kMaxJsonDepth; ++i) deep += "]";
  auto [code, line] = error_of([&] { read_program(deep, "deep.pt2"); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("nests its JSON more than 512 deep") != std::string::npos);
  CHECK(line.find("(deep.pt2)") != std::string::npos);
}

TEST_CASE("forward's result structure is typed at load, its dict keys checked against its values") {
  json doc = program(
      json::array({node("y", "torch.ops.aten.relu.default",
                        json::array({input("self", tensor("x"))}), json::array({tensor("y")}))}));
  const json leaf = {{"type", nullptr}, {"context", nullptr}, {"children_spec", json::array()}};
  json dict = {{"type", "builtins.dict"},
               {"context", "[\"logits\"]"},
               {"children_spec", json::array({leaf})}};
  doc["graph_module"]["module_call_graph"] =
      json::array({{{"fqn", ""}, {"signature", {{"out_spec", json::array({1, dict}).dump()}}}}});
  const Program p = parse_program(doc, "m.pt2");
  REQUIRE(p.out_spec);
  CHECK(p.out_spec->type == TreeSpec::Type::dict);
  CHECK(p.out_spec->keys == std::vector<std::string>{"logits"});
  CHECK(p.out_spec->children.at(0).type == TreeSpec::Type::leaf);
  dict["context"] = "[\"logits\", \"loss\"]";
  doc["graph_module"]["module_call_graph"][0]["signature"]["out_spec"] =
      json::array({1, dict}).dump();
  CHECK(refusal(doc).find("names 2 keys for 1 values") != std::string::npos);
}

TEST_CASE("module_call_graph's signatures are read by call; a later call is no module") {
  json doc = program(
      json::array({node("y", "torch.ops.aten.relu.default",
                        json::array({input("self", tensor("x"))}), json::array({tensor("y")}))}));
  const auto entry = [](const char* fqn, const char* in, const char* out) {
    return json{{"fqn", fqn},
                {"signature",
                 {{"inputs", json::array({tensor(in), {{"as_none", true}}})},
                  {"outputs", json::array({tensor(out)})}}}};
  };
  doc["graph_module"]["module_call_graph"] = json::array({{{"fqn", ""}},
                                                          entry("c", "x", "y"),
                                                          {{"fqn", "d"}, {"signature", nullptr}},
                                                          entry("c@1", "y", "y")});
  const Program p = parse_program(doc, "m.pt2");
  CHECK(p.module_paths == std::vector<std::string>{"", "c", "d"});
  REQUIRE(p.call_signatures.size() == 2);
  const CallSignature& second = p.call_signatures.at("c@1");
  REQUIRE(second.inputs.size() == 2);
  CHECK(second.inputs[0].names == std::vector<std::string>{"y"});
  CHECK(second.inputs[1].kind == Argument::Kind::none);
  CHECK(second.outputs.at(0).names == std::vector<std::string>{"y"});
}

TEST_CASE("a ModelOutput result is a dict of its keys; None holds no output") {
  json doc = program(
      json::array({node("y", "torch.ops.aten.relu.default",
                        json::array({input("self", tensor("x"))}), json::array({tensor("y")}))}));
  const json leaf = {{"type", nullptr}, {"context", nullptr}, {"children_spec", json::array()}};
  const json none = {
      {"type", "builtins.NoneType"}, {"context", "null"}, {"children_spec", json::array()}};
  // BertModel's: "Output" is not the end of every ModelOutput's name
  const json output = {
      {"type", "transformers.modeling_outputs.BaseModelOutputWithPoolingAndCrossAttentions"},
      {"context", "[\"last_hidden_state\"]"},
      {"children_spec", json::array({leaf})}};
  const json tuple = {{"type", "builtins.tuple"},
                      {"context", "null"},
                      {"children_spec", json::array({output, none})}};
  doc["graph_module"]["module_call_graph"] =
      json::array({{{"fqn", ""}, {"signature", {{"out_spec", json::array({1, tuple}).dump()}}}}});
  const Program p = parse_program(doc, "m.pt2");
  REQUIRE(p.out_spec);
  REQUIRE(p.out_spec->children.size() == 2);
  CHECK(p.out_spec->children[0].type == TreeSpec::Type::dict);
  CHECK(p.out_spec->children[0].keys == std::vector<std::string>{"last_hidden_state"});
  CHECK(p.out_spec->children[1].type == TreeSpec::Type::none);
  CHECK(leaf_count(*p.out_spec) == 1);
}

TEST_CASE("a signature's in_spec tells which of its inputs were passed by position") {
  json doc = program(
      json::array({node("y", "torch.ops.aten.relu.default",
                        json::array({input("self", tensor("x"))}), json::array({tensor("y")}))}));
  const json leaf = {{"type", nullptr}, {"context", nullptr}, {"children_spec", json::array()}};
  const auto container = [](const char* type, const char* context, json children) {
    return json{{"type", type}, {"context", context}, {"children_spec", children}};
  };
  // forward(x, (h, c), mask=m): two arguments by position, flat x, h, c; one by keyword
  const json args = container(
      "builtins.tuple", "null",
      json::array({leaf, container("builtins.tuple", "null", json::array({leaf, leaf}))}));
  const json kwargs = container("builtins.dict", "[\"mask\"]", json::array({leaf}));
  const auto entry = [](const char* fqn, const json& in_spec, int inputs) {
    return json{{"fqn", fqn},
                {"signature",
                 {{"inputs", json(inputs, tensor("x"))},
                  {"outputs", json::array({tensor("y")})},
                  {"in_spec", json::array({1, in_spec}).dump()}}}};
  };
  const json call = container("builtins.tuple", "null", json::array({args, kwargs}));
  const json keywords_only =
      container("builtins.tuple", "null",
                json::array({container("builtins.tuple", "null", json::array()), kwargs}));
  // a dict of int keys (a positional argument's): not a spec modrec reads, so it tells nothing
  const json int_keys = container(
      "builtins.tuple", "null",
      json::array({container("builtins.tuple", "null",
                             json::array({container("builtins.dict", "[0]", json::array({leaf}))})),
                   container("builtins.dict", "[]", json::array())}));
  doc["graph_module"]["module_call_graph"] = json::array({{{"fqn", ""}},
                                                          entry("a", call, 4),
                                                          entry("b", keywords_only, 1),
                                                          entry("c", call, 3),
                                                          entry("d", int_keys, 1)});
  const Program p = parse_program(doc, "m.pt2");
  REQUIRE(p.call_signatures.at("a").positional());
  CHECK(p.call_signatures.at("a").positional()->args == 2);
  CHECK(p.call_signatures.at("a").positional()->inputs == 3);
  REQUIRE(p.call_signatures.at("b").positional());
  CHECK(p.call_signatures.at("b").positional()->args == 0);
  CHECK(p.call_signatures.at("b").positional()->inputs == 0);
  CHECK_FALSE(p.call_signatures.at("c").positional());  // 4 leaves for 3 inputs
  CHECK_FALSE(p.call_signatures.at("d").positional());
}

TEST_CASE("a module stack's entries, strict export's _export_root wrapper left out") {
  const auto stack =
      pt2::parse_module_stack("L__self__,,m.Net;7,_export_root,m.Net;8,_export_root.br.0,Linear");
  REQUIRE(stack.size() == 2);
  CHECK(stack[0].key == "L__self__");
  CHECK(stack[0].path.empty());
  CHECK(stack[1].key == "8");
  CHECK(stack[1].path == "br.0");
  CHECK(stack[1].type == "Linear");
  CHECK(pt2::parse_module_stack("").empty());
}

TEST_CASE("an edge program's debug handles are typed; ExecuTorch's schema is read as its source") {
  json doc = leaky_relu({{"as_float", 0.5}});
  doc["graph_module"]["graph"]["nodes"][0]["metadata"] = {{"debug_handle", "7"}};
  CHECK(parse_program(doc, "m.pt2").nodes[0].debug_handle == 7);
  doc["graph_module"]["graph"]["nodes"][0]["metadata"] = json::object();
  CHECK(parse_program(doc, "m.pt2").nodes[0].debug_handle == -1);
  doc["graph_module"]["graph"]["nodes"][0]["metadata"] = {{"debug_handle", "(1, 2)"}};
  CHECK(refusal(doc).find("its debug_handle holds \"(1, 2)\" where a number goes") !=
        std::string::npos);

  const ProgramSource et{kExecuTorchSchemaMajor, "ETRecord's edge program", "ExecuTorch 1.x",
                         "give its ETRecord"};
  doc = leaky_relu({{"as_float", 0.5}});
  doc["schema_version"]["major"] = kExecuTorchSchemaMajor;
  CHECK(parse_program(doc, "r.etrecord", et).nodes.size() == 1);
  auto [code, line] = error_of([&] { parse_program(doc, "m.pt2"); });
  CHECK(line.find("export archive has export schema version 5.0, not supported") !=
        std::string::npos);
  doc["graph_module"]["graph"]["nodes"][0]["inputs"][0]["arg"] = tensor("nothing");
  std::tie(code, line) = error_of([&] { parse_program(doc, "r.etrecord", et); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("ETRecord's edge program is malformed: node y") != std::string::npos);
  CHECK(line.find("give its ETRecord") != std::string::npos);
}

TEST_CASE("a buffer mutation's output spec reads a TensorArgument, as the schema declares it") {
  json doc = leaky_relu({{"as_float", 0.5}});
  doc["graph_module"]["signature"]["output_specs"].push_back(
      {{"buffer_mutation", {{"arg", {{"name", "y"}}}, {"buffer_name", "cache"}}}});
  const Program p = parse_program(doc, "m.pt2");
  REQUIRE(p.outputs.size() == 2);
  CHECK(p.outputs[1].value.names == std::vector<std::string>{"y"});
  CHECK(p.outputs[1].buffer == "cache");
  CHECK_FALSE(p.outputs[1].user);
}
