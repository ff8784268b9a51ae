#include "graph/graph.h"

#include <doctest/doctest.h>

#include "graph/test_fixtures.h"
#include "util/error.h"

using namespace modrec;
using namespace modrec::testing;

namespace {

// "from->to" by label (calls) or type and index (inputs, outputs).
std::vector<std::string> edges(const Graph& g) {
  const auto name = [&](int n) {
    const GraphNode& node = g.nodes[n];
    return node.end.kind == FlowEnd::Kind::call ? node.label
                                                : node.type + std::to_string(node.end.index);
  };
  std::vector<std::string> out;
  for (const auto& e : g.edges) out.push_back(name(e.from) + "->" + name(e.to));
  return out;
}

}  // namespace

TEST_CASE("at full depth: atomic calls are nodes, containers clusters, the root is the graph") {
  const Graph g = SmallNet().graph(3);
  CHECK(g.title == "Net");
  REQUIRE(g.nodes.size() == 5);
  CHECK(g.nodes[1].label == "2-1");
  CHECK(g.nodes[1].type == "Conv2d");
  CHECK(g.nodes[1].shape == Shape{2, 8, 8, 8});
  CHECK(g.nodes[1].num_params == 224);
  CHECK(g.nodes[1].cluster == 0);
  CHECK(g.nodes[3].cluster == -1);
  REQUIRE(g.clusters.size() == 1);
  CHECK(g.clusters[0].path == "features");
  CHECK(edges(g) == std::vector<std::string>{"input0->2-1", "2-1->2-2", "2-2->1-2", "input0->1-2",
                                             "1-2->output0"});
}

TEST_CASE("deeper calls fold into their ancestor at --depth; edges inside it disappear") {
  const Graph g = SmallNet().graph(1);
  REQUIRE(g.nodes.size() == 4);
  CHECK(g.nodes[1].label == "1-1");
  CHECK(g.nodes[1].folded_calls == 2);
  CHECK(g.nodes[1].num_params == 224);
  CHECK(g.clusters.empty());
  CHECK(edges(g) ==
        std::vector<std::string>{"input0->1-1", "1-1->1-2", "input0->1-2", "1-2->output0"});
}

TEST_CASE("depth 0 draws the model as one node") {
  const Graph g = SmallNet().graph(0);
  REQUIRE(g.nodes.size() == 3);
  CHECK(g.nodes[1].label == "0-1");
  CHECK(g.nodes[1].folded_calls == 4);
  CHECK(g.nodes[1].num_params == 224 + 36);
  CHECK(edges(g) == std::vector<std::string>{"input0->0-1", "0-1->output0"});
}

TEST_CASE("without an input: the atomic calls chained in static order, no shapes") {
  SmallNet net;
  const CallTrace trace = static_trace(net.b.tree);
  const Graph g = build_graph(net.b.tree, trace, static_flow(trace), 3);
  CHECK(g.static_order);
  CHECK_FALSE(g.nodes[1].has_shape);
  CHECK(edges(g) ==
        std::vector<std::string>{"input0->2-1", "2-1->2-2", "2-2->1-2", "1-2->output0"});
}

TEST_CASE("a negative depth is a usage error") {
  SmallNet net;
  try {
    net.graph(-1);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    CHECK(e.where() == "--depth");
  }
}
