// The graph `modrec graph` draws (torch-free): calls down to --depth as nodes, the calls above
// them that made calls as clusters, graph inputs and outputs as nodes, and the data flow folded
// onto the nodes shown.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/data_flow.h"
#include "model/call_trace.h"
#include "model/module_tree.h"

namespace modrec {

struct GraphNode {
  FlowEnd end;             // what the node stands for: a call, a graph input or output
  std::string label;       // the call's torchinfo label ("2-1"); "" for inputs and outputs
  std::string type;        // the module's type; "input"/"output"
  std::string path;        // the module's path ("layer1.0.conv1")
  Shape shape;             // the call's output size (torchinfo's), the input's or output's shape
  bool has_shape = false;  // false without an input
  int64_t num_params = 0;  // the module's parameters with its submodules'
  int folded_calls = 0;    // calls deeper than --depth drawn as this node
  int cluster = -1;        // the innermost cluster holding it (index in Graph::clusters)
};

struct GraphCluster {
  int call = 0;
  std::string label, type, path;
  int parent = -1;  // the cluster holding this one
};

struct GraphEdge {
  int from = 0, to = 0;  // indices in Graph::nodes
  auto operator<=>(const GraphEdge&) const = default;
};

struct Graph {
  std::string title;  // the root module's type
  bool has_input = false;
  bool static_order = false;  // edges chain the calls in static order (DataFlow::static_order)
  int depth = 0;
  std::vector<GraphNode> nodes;        // inputs, calls in call order, outputs
  std::vector<GraphCluster> clusters;  // in call order: a cluster comes after its parent
  std::vector<GraphEdge> edges;
};

// Folds `flow` (between atomic calls) onto the calls at most `depth` deep: a deeper call is drawn
// as its ancestor at `depth`, an edge inside one node disappears, parallel edges become one.
// The root call is the graph itself (its title) unless it is drawn as a node (depth 0, or a
// model without submodule calls).
Graph build_graph(const ModuleTree& tree, const CallTrace& trace, const DataFlow& flow, int depth);

// A negative --depth is a usage error.
void validate_graph_depth(int depth);

}  // namespace modrec
