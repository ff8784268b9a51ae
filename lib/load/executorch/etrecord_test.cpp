#include "load/executorch/etrecord.h"

#include <doctest/doctest.h>

#include <string>
#include <tuple>

#include "load/executorch/etrecord_check.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

// The shape of ExecuTorch 1.5.1's edge program of a Net whose fc (a Linear) runs permute_copy and
// addmm under one debug handle, after a mean whose fill value Python's json wrote bare.
const char* const kEdgeProgram = R"({
  "schema_version": {"major": 5, "minor": 4},
  "graph_module": {
    "graph": {
      "nodes": [
        {"name": "mean", "target": "executorch.exir.dialects.edge.ops.aten.clamp.default",
         "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}},
                    {"name": "min", "arg": {"as_float": -Infinity}}],
         "outputs": [{"as_tensor": {"name": "mean"}}],
         "metadata": {"nn_module_stack": "L__self__,,__main__.Net;L__self__pool,pool,m.Pool",
                      "debug_handle": "1"}},
        {"name": "permute", "target": "executorch.exir.dialects.edge.ops.aten.permute_copy.default",
         "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "p_fc_weight"}}}],
         "outputs": [{"as_tensor": {"name": "permute"}}],
         "metadata": {"nn_module_stack": "L__self__,,__main__.Net;L__self__fc,fc,m.Linear",
                      "debug_handle": "2"}},
        {"name": "addmm", "target": "executorch.exir.dialects.edge.ops.aten.addmm.default",
         "inputs": [{"name": "mat1", "arg": {"as_tensor": {"name": "mean"}}},
                    {"name": "mat2", "arg": {"as_tensor": {"name": "permute"}}}],
         "outputs": [{"as_tensor": {"name": "addmm"}}],
         "metadata": {"nn_module_stack": "L__self__,,__main__.Net;L__self__fc,fc,m.Linear",
                      "debug_handle": "2"}}],
      "tensor_values": {
        "x": {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 16}]},
        "p_fc_weight": {"dtype": 7, "sizes": [{"as_int": 10}, {"as_int": 16}]},
        "mean": {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 16}]},
        "permute": {"dtype": 7, "sizes": [{"as_int": 16}, {"as_int": 10}]},
        "addmm": {"dtype": 7, "sizes": [{"as_int": 2}, {"as_int": 10}]}}},
    "signature": {
      "input_specs": [{"parameter": {"arg": {"name": "p_fc_weight"}, "parameter_name": "fc.weight"}},
                      {"user_input": {"arg": {"as_tensor": {"name": "x"}}}}],
      "output_specs": [{"user_output": {"arg": {"as_tensor": {"name": "addmm"}}}}]},
    "module_call_graph": [{"fqn": ""}, {"fqn": "pool"}, {"fqn": "fc"}]}})";

const char* const kHandles = R"({"forward": {"0": 1, "1": [2], "2": 2}})";

EtRecord record() { return parse_etrecord(kEdgeProgram, kHandles, "net.etrecord"); }

// forward as the runtime describes Net's program: 3 instructions, float32 (c10's 6) in and out.
PteMethod method() { return {3, {{6, {2, 16}}}, {{6, {2, 10}}}}; }

std::string refusal(const EtRecord& r, const PteMethod& m) {
  auto [code, line] = error_of([&] { check_etrecord(r, m); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("ETRecord does not describe this program: ") != std::string::npos);
  CHECK(line.find("(net.etrecord)") != std::string::npos);
  return line;
}

}  // namespace

TEST_CASE("the edge program typed by the .pt2 reader: nodes, handles, root class, signature") {
  const EtRecord r = record();
  CHECK(r.tree.modules[0].type == "Net");  // the root's entry's class
  REQUIRE(r.tree.modules.size() == 3);     // the root, pool, fc: module_call_graph's
  CHECK(r.tree.modules[2].params.size() == 1);
  CHECK(r.tree.modules[2].params[0].shape == Shape{10, 16});  // p_fc_weight's, sized by its meta
  REQUIRE(r.nodes.size() == 3);
  CHECK(r.nodes[2].debug_handle == 2);
  CHECK(r.nodes[2].stack.size() == 1);  // the root's entry left out
  CHECK(r.nodes[2].stack[0].path == "fc");
  CHECK(r.nodes[1].shape == Shape{16, 10});
  CHECK(r.handles.at(1) == std::vector<int64_t>{2});
  REQUIRE(r.inputs.size() == 1);
  CHECK(r.inputs[0]->sizes == std::vector<int64_t>{2, 16});
  REQUIRE(r.outputs.size() == 1);
  check_etrecord(r, method());
}

TEST_CASE("a malformed edge program or map is named with the ETRecord") {
  std::string bad = kEdgeProgram;
  bad.replace(bad.find("\"1\"}}"), 3, "\"x\"");
  auto [code, line] = error_of([&] { parse_etrecord(bad, kHandles, "net.etrecord"); });
  CHECK(line.find("ETRecord's edge program is malformed: node mean") != std::string::npos);
  std::tie(code, line) =
      error_of([&] { parse_etrecord(kEdgeProgram, R"({"forward": {"a": 1}})", "net.etrecord"); });
  CHECK(line.find("ETRecord is malformed") != std::string::npos);
  std::tie(code, line) = error_of([&] { parse_etrecord(kEdgeProgram, "[1]", "net.etrecord"); });
  CHECK(code == Exit::bad_input);
}

TEST_CASE("an ETRecord of another program is refused, naming what differs") {
  CHECK(refusal(record(), {2, {{6, {2, 16}}}, {{6, {2, 10}}}})
            .find("names instruction 2 of forward, which has 2") != std::string::npos);
  CHECK(
      refusal(record(), {3, {{6, {2, 3, 8, 8}}}, {{6, {2, 10}}}})
          .find("its edge program's input 0 is Float [2, 16], the program's Float [2, 3, 8, 8]") !=
      std::string::npos);
  CHECK(refusal(record(), {3, {{6, {2, 16}}, {6, {1}}}, {{6, {2, 10}}}})
            .find("its edge program has 1 inputs, the program's forward 2") != std::string::npos);
  CHECK(refusal(record(), {3, {{6, {2, 16}}}, {{4, {2, 10}}}})
            .find("output 0 is Float [2, 10], the program's Long [2, 10]") != std::string::npos);
  EtRecord r = record();
  r.handles[1] = {9};
  CHECK(refusal(r, method()).find("gives instruction 1 the debug handle 9, which no node") !=
        std::string::npos);
}
