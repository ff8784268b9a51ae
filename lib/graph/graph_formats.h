// `modrec graph`'s text formats (torch-free): Graphviz DOT and JSON. SVG is DOT rendered by
// Graphviz (graph/svg.h).
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "graph/graph.h"
#include "util/enum_names.h"

namespace modrec {

enum class GraphFormat { dot, svg, json };  // graph --format
const EnumNames<GraphFormat>& graph_format_names();

// Nodes labelled "<label> <type>", the output shape and, with `params`, the parameter count;
// clusters as DOT's cluster subgraphs. Static-order edges are dashed.
std::string to_dot(const Graph& graph, bool params);

// Every node, cluster and edge with all fields; node ids as in the DOT ("in0", "c5", "out0").
nlohmann::json to_json(const Graph& graph);

}  // namespace modrec
