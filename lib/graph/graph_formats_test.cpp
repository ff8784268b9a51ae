#include "graph/graph_formats.h"

#include <doctest/doctest.h>

#include "graph/test_fixtures.h"

using namespace modrec;
using namespace modrec::testing;

namespace {
bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}
}  // namespace

TEST_CASE("DOT: labels with label, type and shape, clusters nested, edges by node id") {
  const std::string dot = to_dot(SmallNet().graph(3), false);
  CHECK(dot.rfind("digraph \"Net\" {\n", 0) == 0);
  CHECK(has(dot, "  subgraph cluster_1 {\n    label=\"1-1 Sequential\"; tooltip=\"features\";"));
  CHECK(has(dot, "    c2 [label=\"2-1 Conv2d\\n[2, 8, 8, 8]\", tooltip=\"features.0\"];\n"));
  CHECK(has(dot, "  in0 [label=\"input 0\\n[2, 3, 8, 8]\", shape=ellipse"));
  CHECK(has(dot, "  in0 -> c4;\n"));
  CHECK_FALSE(has(dot, "params"));
  CHECK_FALSE(has(dot, "style=dashed"));
}

TEST_CASE("DOT: --params adds the counts; a folded call is drawn doubled") {
  const std::string dot = to_dot(SmallNet().graph(1), true);
  CHECK(has(dot,
            "  c1 [label=\"1-1 Sequential\\n[2, 8, 8, 8]\\n224 params\", tooltip=\"features\", "
            "peripheries=2];\n"));
}

TEST_CASE("DOT: quotes and backslashes in names are escaped") {
  SmallNet net;
  net.b.tree.modules[4].type = "My\"Linear\\";
  CHECK(has(to_dot(net.graph(3), false), "label=\"1-2 My\\\"Linear\\\\\\n[2, 4]\""));
}

TEST_CASE("JSON: nodes, clusters and edges with ids as in the DOT") {
  const auto j = to_json(SmallNet().graph(3));
  CHECK(j["has_input"] == true);
  CHECK(j["nodes"][0] ==
        nlohmann::json::parse(
            R"({"id": "in0", "kind": "input", "index": 0, "shape": [2, 3, 8, 8]})"));
  CHECK(j["nodes"][1]["cluster"] == "cluster_1");
  CHECK(j["nodes"][1]["num_params"] == 224);
  CHECK(j["nodes"][3]["cluster"] == nullptr);
  CHECK(j["clusters"][0]["parent"] == nullptr);
  CHECK(j["edges"][3] == nlohmann::json::parse(R"({"from": "in0", "to": "c4"})"));
}
