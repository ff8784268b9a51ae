#include "graph/graph_formats.h"

#include <sstream>

#include "summary/text.h"

namespace modrec {
namespace {

std::string node_id(const GraphNode& node) {
  switch (node.end.kind) {
    case FlowEnd::Kind::input:
      return "in" + std::to_string(node.end.index);
    case FlowEnd::Kind::call:
      return "c" + std::to_string(node.end.index);
    case FlowEnd::Kind::output:
      break;
  }
  return "out" + std::to_string(node.end.index);
}

std::string cluster_id(const GraphCluster& cluster) {
  return "cluster_" + std::to_string(cluster.call);
}

// A DOT double-quoted string, line breaks as DOT's "\n".
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    if (ch == '\n') {
      out += "\\n";
      continue;
    }
    if (ch == '"' || ch == '\\') out += '\\';
    out += ch;
  }
  return out + "\"";
}

std::string node_label(const GraphNode& node, bool params) {
  std::string label =
      node.end.kind == FlowEnd::Kind::call
          ? node.label + " " + node.type
          : node.type + (node.has_shape ? " " + std::to_string(node.end.index) : "");
  if (node.has_shape) label += "\n" + text::list_repr(node.shape);
  if (params && node.end.kind == FlowEnd::Kind::call)
    label += "\n" + text::with_commas(node.num_params) + " params";
  return label;
}

std::string node_line(const GraphNode& node, bool params) {
  std::string attrs = "label=" + quoted(node_label(node, params));
  if (node.end.kind != FlowEnd::Kind::call) attrs += ", shape=ellipse, fillcolor=\"#f2f2f2\"";
  if (!node.path.empty()) attrs += ", tooltip=" + quoted(node.path);
  if (node.folded_calls > 0) attrs += ", peripheries=2";  // a call drawn with its calls inside
  return node_id(node) + " [" + attrs + "];\n";
}

class DotWriter {
 public:
  DotWriter(const Graph& g, bool params) : g_(g), params_(params) {}

  std::string write() {
    out_ << "digraph " << quoted(g_.title) << " {\n"
         << "  graph [label=" << quoted(g_.title) << ", labelloc=t, fontname=\"Helvetica\", "
         << "fontsize=12, compound=true];\n"
         << "  node [shape=box, style=\"rounded,filled\", fillcolor=\"#e8f0fe\", "
         << "fontname=\"Helvetica\", fontsize=10];\n"
         << "  edge [arrowsize=0.7" << (g_.static_order ? ", style=dashed" : "") << "];\n";
    write_members(-1, "  ");
    for (const auto& e : g_.edges)
      out_ << "  " << node_id(g_.nodes[e.from]) << " -> " << node_id(g_.nodes[e.to]) << ";\n";
    out_ << "}\n";
    return out_.str();
  }

 private:
  // The nodes and clusters directly inside `cluster` (-1: the graph), clusters nested.
  void write_members(int cluster, const std::string& indent) {
    for (const auto& node : g_.nodes)
      if (node.cluster == cluster) out_ << indent << node_line(node, params_);
    for (size_t k = 0; k < g_.clusters.size(); ++k) {
      const GraphCluster& c = g_.clusters[k];
      if (c.parent != cluster) continue;
      out_ << indent << "subgraph " << cluster_id(c) << " {\n"
           << indent << "  label=" << quoted(c.label + " " + c.type)
           << "; tooltip=" << quoted(c.path) << "; style=\"rounded,dashed\"; fontsize=10;\n";
      write_members(static_cast<int>(k), indent + "  ");
      out_ << indent << "}\n";
    }
  }

  const Graph& g_;
  const bool params_;
  std::ostringstream out_;
};

nlohmann::json id_or_null(const Graph& g, int cluster) {
  return cluster < 0 ? nlohmann::json(nullptr) : nlohmann::json(cluster_id(g.clusters[cluster]));
}

nlohmann::json node_json(const Graph& g, const GraphNode& node) {
  nlohmann::json j{{"id", node_id(node)},
                   {"kind", node.end.kind == FlowEnd::Kind::call ? "call" : node.type}};
  if (node.end.kind != FlowEnd::Kind::call) {
    j["index"] = node.end.index;
    j["shape"] = node.has_shape ? nlohmann::json(node.shape) : nlohmann::json(nullptr);
    return j;
  }
  j.update({{"call", node.end.index},
            {"label", node.label},
            {"type", node.type},
            {"path", node.path},
            {"output_size", node.has_shape ? nlohmann::json(node.shape) : nlohmann::json(nullptr)},
            {"num_params", node.num_params},
            {"folded_calls", node.folded_calls},
            {"cluster", id_or_null(g, node.cluster)}});
  return j;
}

}  // namespace

const EnumNames<GraphFormat>& graph_format_names() {
  static const EnumNames<GraphFormat> names{
      {"dot", GraphFormat::dot}, {"svg", GraphFormat::svg}, {"json", GraphFormat::json}};
  return names;
}

std::string to_dot(const Graph& graph, bool params) { return DotWriter(graph, params).write(); }

nlohmann::json to_json(const Graph& g) {
  nlohmann::json nodes = nlohmann::json::array(), clusters = nlohmann::json::array(),
                 edges = nlohmann::json::array();
  for (const auto& node : g.nodes) nodes.push_back(node_json(g, node));
  for (const auto& c : g.clusters)
    clusters.push_back({{"id", cluster_id(c)},
                        {"call", c.call},
                        {"label", c.label},
                        {"type", c.type},
                        {"path", c.path},
                        {"parent", id_or_null(g, c.parent)}});
  for (const auto& e : g.edges)
    edges.push_back({{"from", node_id(g.nodes[e.from])}, {"to", node_id(g.nodes[e.to])}});
  return {{"title", g.title}, {"has_input", g.has_input}, {"static_order", g.static_order},
          {"depth", g.depth}, {"nodes", nodes},           {"clusters", clusters},
          {"edges", edges}};
}

}  // namespace modrec
