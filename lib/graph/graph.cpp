#include "graph/graph.h"

#include <set>

#include "labels/call_labeler.h"
#include "util/error.h"

namespace modrec {
namespace {

// Per call of the trace: how deep it is, whether it made calls, what it is drawn as.
struct CallLayout {
  std::vector<int> depth;
  std::vector<bool> has_children;
  std::vector<int> shown_as;  // the call drawn for it: itself, or its ancestor at --depth
};

CallLayout lay_out(const CallTrace& trace, int max_depth) {
  const size_t n = trace.calls.size();
  CallLayout l{std::vector<int>(n, 0), std::vector<bool>(n, false), std::vector<int>(n, 0)};
  for (const auto& call : trace.calls)
    if (call.parent_call >= 0) l.has_children[call.parent_call] = true;
  // A call's parent started before it: one pass in call order sees parents first.
  for (size_t c = 0; c < n; ++c) {
    const int parent = trace.calls[c].parent_call;
    l.depth[c] = parent < 0 ? 0 : l.depth[parent] + 1;
    l.shown_as[c] = l.depth[c] <= max_depth ? static_cast<int>(c) : l.shown_as[parent];
  }
  return l;
}

bool is_cluster(const CallLayout& l, size_t call, int max_depth) {
  return call > 0 && l.depth[call] < max_depth && l.has_children[call];
}

// Parameters of each module with its submodules' (modules are in preorder: children come later).
std::vector<int64_t> subtree_params(const ModuleTree& tree) {
  std::vector<int64_t> total(tree.modules.size(), 0);
  for (size_t m = tree.modules.size(); m-- > 0;) {
    for (const auto& p : tree.modules[m].params) total[m] += p.numel;
    if (tree.modules[m].parent >= 0) total[tree.modules[m].parent] += total[m];
  }
  return total;
}

// Input or output nodes for the root's tensors (one without shape for the static structure).
void add_ends(Graph& g, FlowEnd::Kind kind, const ValueMeta& meta, bool ran) {
  const size_t count = ran ? meta.tensors.size() : 1;
  const std::string name = kind == FlowEnd::Kind::input ? "input" : "output";
  for (size_t i = 0; i < count; ++i) {
    GraphNode node{{kind, static_cast<int>(i)}, "", name};
    if (ran) node.shape = meta.tensors[i].shape;
    node.has_shape = ran;
    g.nodes.push_back(std::move(node));
  }
}

class GraphBuilder {
 public:
  GraphBuilder(const ModuleTree& tree, const CallTrace& trace, int depth)
      : tree_(tree),
        trace_(trace),
        depth_(depth),
        layout_(lay_out(trace, depth)),
        labels_(call_labels(tree, trace)),
        params_(subtree_params(tree)) {}

  Graph build(const DataFlow& flow) {
    g_.title = tree_.modules[0].type;
    g_.has_input = trace_.ran;
    g_.static_order = flow.static_order;
    g_.depth = depth_;
    const Call& root = trace_.calls[0];
    add_ends(g_, FlowEnd::Kind::input, root.inputs, trace_.ran);
    add_calls();
    add_ends(g_, FlowEnd::Kind::output, root.outputs, trace_.ran);
    add_edges(flow);
    return std::move(g_);
  }

 private:
  // In call order, so that a call's parent (and its cluster) is known before the call.
  void add_calls() {
    const size_t n = trace_.calls.size();
    node_of_call_.assign(n, -1);
    cluster_of_call_.assign(n, -1);
    enclosing_.assign(n, -1);
    for (size_t c = 0; c < n; ++c) {
      const int parent = trace_.calls[c].parent_call;
      if (parent >= 0)
        enclosing_[c] =
            cluster_of_call_[parent] >= 0 ? cluster_of_call_[parent] : enclosing_[parent];
      if (layout_.shown_as[c] != static_cast<int>(c)) {
        ++g_.nodes[node_of_call_[layout_.shown_as[c]]].folded_calls;
      } else if (is_cluster(layout_, c, depth_)) {
        cluster_of_call_[c] = static_cast<int>(g_.clusters.size());
        const Module& m = module_of(c);
        g_.clusters.push_back({static_cast<int>(c), labels_[c], m.type, m.path, enclosing_[c]});
      } else if (c > 0 || depth_ == 0 || !layout_.has_children[0]) {
        node_of_call_[c] = static_cast<int>(g_.nodes.size());
        g_.nodes.push_back(call_node(c));
      }
    }
  }

  GraphNode call_node(size_t c) const {
    const Module& m = module_of(c);
    GraphNode node{{FlowEnd::Kind::call, static_cast<int>(c)}, labels_[c], m.type, m.path};
    node.shape = trace_.calls[c].outputs.size;
    node.has_shape = trace_.ran;
    node.num_params = params_[trace_.calls[c].module];
    node.cluster = enclosing_[c];
    return node;
  }

  const Module& module_of(size_t c) const { return tree_.modules[trace_.calls[c].module]; }

  int node_of(const FlowEnd& end) const {
    switch (end.kind) {
      case FlowEnd::Kind::input:
        return end.index;
      case FlowEnd::Kind::call:
        return node_of_call_[layout_.shown_as[end.index]];
      case FlowEnd::Kind::output:
        break;
    }
    return static_cast<int>(g_.nodes.size()) - output_count() + end.index;
  }

  int output_count() const {
    return trace_.ran ? static_cast<int>(trace_.calls[0].outputs.tensors.size()) : 1;
  }

  void add_edges(const DataFlow& flow) {
    std::set<GraphEdge> seen;
    for (const auto& e : flow.edges) {
      const GraphEdge edge{node_of(e.from), node_of(e.to)};
      if (edge.from != edge.to && seen.insert(edge).second) g_.edges.push_back(edge);
    }
  }

  const ModuleTree& tree_;
  const CallTrace& trace_;
  const int depth_;
  const CallLayout layout_;
  const std::vector<std::string> labels_;
  const std::vector<int64_t> params_;
  std::vector<int> node_of_call_;     // -1: the call is drawn as another's node, or a cluster
  std::vector<int> cluster_of_call_;  // index in Graph::clusters, -1: no cluster
  std::vector<int> enclosing_;        // the innermost cluster around the call, -1: none
  Graph g_;
};

}  // namespace

Graph build_graph(const ModuleTree& tree, const CallTrace& trace, const DataFlow& flow, int depth) {
  validate_graph_depth(depth);
  return GraphBuilder(tree, trace, depth).build(flow);
}

void validate_graph_depth(int depth) {
  if (depth < 0)
    throw Error(Exit::usage, "--depth must be 0 or more, not " + std::to_string(depth), "--depth",
                "give the deepest nesting to draw (0: the model as one node)");
}

}  // namespace modrec
