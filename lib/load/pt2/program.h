// What a torch.export archive's models/<name>.json says, as plain data (torch-free): the graph's
// nodes with their arguments, the graph's inputs and outputs, the tensor metadata and the
// modules called. Schema: torch/_export/serde/schema.py (SCHEMA_VERSION 8.x); what modrec reads of
// it: docs/pt2.md.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace modrec::pt2 {

// One entry of a node's nn_module_stack: the module call that (transitively) made the node.
struct StackEntry {
  std::string key;   // tells calls of one module apart: "L__self__shared@1" is its second call
  std::string path;  // "b.conv"; "" for the root
  std::string type;  // qualified Python class: "torch.nn.modules.conv.Conv2d"
};

// One named argument of a node; `value` is the schema's Argument union as written
// ({"as_tensor": {"name": "x"}}, {"as_ints": [1, 1]}, ...), converted when the node runs.
struct NodeArg {
  std::string name;
  nlohmann::json value;
  bool keyword = false;  // ArgumentKind KEYWORD: passed by name
};

struct Node;

// A subgraph a higher-order operator's node runs (cond's branches, a no_grad block's body): its
// own namespace of values, its inputs bound to the values the node passes.
struct Graph {
  std::vector<std::string> inputs;      // value names, in order
  std::vector<nlohmann::json> outputs;  // Argument unions, in order
  std::vector<Node> nodes;
};

struct Node {
  std::string name;    // the node's own name, for messages
  std::string target;  // "torch.ops.aten.conv2d.default"
  // An as_graph argument's value is {"as_graph": i}, i indexing `graphs`.
  std::vector<NodeArg> inputs;
  std::vector<nlohmann::json> outputs;   // Argument unions: as_tensor, as_tensors, as_int, ...
  std::vector<StackEntry> module_stack;  // outermost first; empty when the node has none
  std::vector<Graph> graphs;             // the subgraphs among its arguments, in order
};

// `nodes` and the nodes of their subgraphs, depth-first in order.
inline void visit_nodes(const std::vector<Node>& nodes, const std::function<void(const Node&)>& f) {
  for (const Node& node : nodes) {
    f(node);
    for (const Graph& graph : node.graphs) visit_nodes(graph.nodes, f);
  }
}

// The schema's TensorMeta with concrete sizes (a symbolic size is -1).
struct TensorMeta {
  int dtype = 0;   // the schema's ScalarType number, not c10's (schema_enums.h maps it)
  int layout = 7;  // the schema's Layout number; 7 is Strided
  std::vector<int64_t> sizes;
  std::vector<std::string> size_symbols;  // per size: its symbol ("s70") when it is one, else ""
  std::vector<int64_t> strides;           // as sizes
  int64_t storage_offset = 0;
  bool requires_grad = false;
};

// How the graph's input of one name is fed (signature.input_specs).
struct InputSpec {
  enum class Kind { parameter, buffer, tensor_constant, user_input, constant_input, other };
  Kind kind = Kind::other;
  std::string value;        // the graph input's name: "p_fc_weight", "x"
  std::string target;       // parameter/buffer/constant FQN: "fc.weight"
  nlohmann::json constant;  // constant_input: the frozen value (an Argument union)
};

// What the graph's output of one position is (signature.output_specs).
struct OutputSpec {
  nlohmann::json value;  // an Argument union
  bool user = false;     // a user output (else a buffer or input mutation)
  std::string buffer;    // buffer_mutation: the buffer's FQN the value is written back to
};

// The sizes a symbol may take (range_constraints); nullopt bounds are unbounded.
struct SymbolRange {
  std::optional<int64_t> min;
  std::optional<int64_t> max;
};

struct Program {
  int schema_major = 0;
  int schema_minor = 0;
  std::string torch_version;
  std::vector<Node> nodes;
  std::vector<InputSpec> inputs;    // the graph's inputs, in order
  std::vector<OutputSpec> outputs;  // the graph's outputs, in order
  std::map<std::string, TensorMeta> tensor_values;
  std::map<std::string, SymbolRange> range_constraints;  // by symbol: "s70"
  std::vector<std::string> module_paths;  // module_call_graph's FQNs: named_modules() order
  // The structure of forward's result as a pytree spec ({"type": "builtins.dict", "context":
  // "[\"a\"]", "children_spec": [...]}, type null for a leaf): the user outputs are its leaves.
  // Null when the archive has none.
  nlohmann::json out_spec;
};

}  // namespace modrec::pt2
