// A small network for the graph tests: Net { features: Sequential { Conv2d, ReLU }, fc: Linear },
// with a skip edge from the input to fc.
#pragma once
#include "graph/graph.h"
#include "summary/test_fixtures.h"

namespace modrec::testing {

struct SmallNet {
  TreeBuilder b{"Net"};
  TraceBuilder t;
  DataFlow flow;

  SmallNet() {
    const int features = b.add(0, "features", "Sequential");
    const int conv = b.add(features, "0", "Conv2d", conv2d(3, 8, 3));
    const int relu = b.add(features, "1", "ReLU");
    const int fc = b.add(0, "fc", "Linear", linear(8, 4));
    t.enter(0, value({2, 3, 8, 8}));
    t.enter(features, value({2, 3, 8, 8}));
    t.leaf(conv, {2, 3, 8, 8}, {2, 8, 8, 8});
    t.leaf(relu, {2, 8, 8, 8}, {2, 8, 8, 8});
    t.exit(value({2, 8, 8, 8}));
    t.leaf(fc, {2, 8}, {2, 4});
    t.exit(value({2, 4}));
    const auto in = [](int i) { return FlowEnd{FlowEnd::Kind::input, i}; };
    const auto call = [](int i) { return FlowEnd{FlowEnd::Kind::call, i}; };
    flow.edges = {{in(0), call(2)},
                  {call(2), call(3)},
                  {call(3), call(4)},
                  {in(0), call(4)},
                  {call(4), {FlowEnd::Kind::output, 0}}};
  }

  Graph graph(int depth) const { return build_graph(b.tree, t.trace, flow, depth); }
};

}  // namespace modrec::testing
