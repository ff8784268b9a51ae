// What a torch.export archive's models/<name>.json says, as typed data (torch-free): the graph's
// nodes with their arguments, the graph's inputs and outputs, the tensor metadata and the
// modules called. Read and checked once, at load (program_json.h, program_check.h): whatever runs
// the program meets no JSON, no value undefined and no argument of a tag it does not know.
// Schema: torch/_export/serde/schema.py (SCHEMA_VERSION 8.x); what modrec reads of it:
// docs/pt2.md.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace modrec::pt2 {

// One entry of a node's nn_module_stack: the module call that (transitively) made the node.
struct StackEntry {
  std::string key;   // tells calls of one module apart: "L__self__shared@1" is its second call
  std::string path;  // "b.conv"; "" for the root
  std::string type;  // qualified Python class: "torch.nn.modules.conv.Conv2d"
};

// One value of the schema's Argument union ({"as_tensor": {"name": "x"}}, {"as_ints": [1, 1]},
// ...), typed: what a node takes or makes, a graph's output, a frozen constant input.
struct Argument {
  enum class Kind {
    none,
    tensor,            // names[0]
    tensors,           // names
    optional_tensor,   // names[0], "" for None
    optional_tensors,  // names, "" for each None
    int_,              // ints[0]
    ints,
    float_,  // floats[0]
    floats,
    bool_,  // ints[0]: 0 or 1
    bools,
    string,  // strings[0]
    strings,
    sym_int,        // names[0] (a value the graph computes), or "" and ints[0]
    sym_ints,       // per element: names[i], or "" and ints[i]
    sym_float,      // names[0], or "" and floats[0]
    sym_bool,       // names[0], or "" and ints[0]
    scalar_type,    // ints[0]: the schema's number (schema_enums.h maps it)
    memory_format,  // ints[0], as scalar_type
    layout,         // ints[0], as scalar_type
    device,         // strings[0] its type ("cpu"), ints[0] its index or -1
    graph,          // ints[0]: the index of the subgraph among its node's Node::graphs
    op,             // strings[0]: an operator's target, "torch.ops.aten.add_.Tensor"
    unsupported,    // strings[0]: a tag of the schema modrec does not run (as_custom_obj, ...)
  };
  Kind kind = Kind::none;
  std::vector<std::string> names;
  std::vector<int64_t> ints;
  std::vector<double> floats;
  std::vector<std::string> strings;
};

// The kind the schema's tag `tag` ("as_tensor") is read as; nullopt for a tag the schema lacks.
std::optional<Argument::Kind> kind_of_tag(const std::string& tag);
// The schema's tag of `argument`, for messages.
std::string tag_of(const Argument& argument);

// The graph values `argument` reads (or, as an output, defines), in order, Nones left out.
std::vector<std::string> value_names(const Argument& argument);

// One named argument of a node.
struct NodeArg {
  std::string name;
  Argument value;
  bool keyword = false;  // ArgumentKind KEYWORD: passed by name
};

struct Node;

// A subgraph a higher-order operator's node runs (cond's branches, a no_grad block's body): its
// own namespace of values, its inputs bound to the values the node passes.
struct Graph {
  std::vector<std::string> inputs;  // value names, in order
  std::vector<Argument> outputs;
  std::vector<Node> nodes;
};

struct Node {
  std::string name;                      // the node's own name, for messages
  std::string target;                    // "torch.ops.aten.conv2d.default"
  std::vector<NodeArg> inputs;           // a graph among them as its index in `graphs`
  std::vector<Argument> outputs;         // as_tensor, as_tensors, as_sym_int, ...
  std::vector<StackEntry> module_stack;  // outermost first; empty when the node has none
  std::vector<Graph> graphs;             // the subgraphs among its arguments, in order
  // ExecuTorch's edge program (an ETRecord's) numbers its operator nodes: the instructions that
  // run a node name its handle (etrecord.h). -1: none (any torch.export archive's node).
  int64_t debug_handle = -1;
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
  std::string value;   // the graph input's name: "p_fc_weight", "x"
  std::string target;  // parameter/buffer/constant FQN: "fc.weight"
  Argument constant;   // constant_input: the frozen value
};

// What the graph's output of one position is (signature.output_specs).
struct OutputSpec {
  Argument value;
  bool user = false;   // a user output (else a buffer or input mutation)
  std::string buffer;  // buffer_mutation: the buffer's FQN the value is written back to
};

// The sizes a symbol may take (range_constraints); nullopt bounds are unbounded.
struct SymbolRange {
  std::optional<int64_t> min;
  std::optional<int64_t> max;
};

// A result's structure, as torch.utils._pytree's spec describes it: a leaf (one of the flat
// outputs, in order), None (no output), or a container of children. A Hugging Face ModelOutput
// (a dict whose spec's context is its keys) is a dict, as torchinfo sizes it. Containers modrec
// does not build (a namedtuple, a dataclass) are `other`: the result is then given flat.
struct TreeSpec {
  enum class Type { leaf, none, tuple, list, dict, other };
  Type type = Type::leaf;
  std::vector<std::string> keys;  // a dict's, one per child
  std::vector<TreeSpec> children;
};

// A module call's boundary as torch.export records it for a module named in
// preserve_module_call_signature (module_call_graph's signature; modrec.export names every one):
// the graph values of its flat arguments (positional, then keyword) and of its flat result.
struct CallSignature {
  std::vector<Argument> inputs;
  std::vector<Argument> outputs;
  // How forward got its arguments (the signature's in_spec, the pytree of its (args, kwargs)),
  // when it tells that much (a tuple of the positional arguments, a dict of the keyword ones, its
  // leaves `inputs`): which inputs each argument flattens to, by place or name.
  std::optional<TreeSpec> in_spec;
  // From in_spec: how many arguments forward was given by position, and how many of `inputs`
  // those flatten to (the first ones; the rest are its keyword arguments'). nullopt when the
  // archive does not tell.
  struct Positional {
    size_t args = 0;
    size_t inputs = 0;
  };
  std::optional<Positional> positional() const;
};

// How many values `spec` flattens to: its leaves.
size_t leaf_count(const TreeSpec& spec);

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
  // The calls whose signature export kept, by FQN and call: "c" is module c's first call, "c@1"
  // its second (module_call_graph's entries, the root's left out).
  std::map<std::string, CallSignature> call_signatures;
  // The structure of forward's result (the root call's signature.out_spec): the user outputs are
  // its leaves. nullopt when the archive has none.
  std::optional<TreeSpec> out_spec;
  // The root call's signature (module_call_graph's "" entry): the graph's user inputs by
  // forward's argument, which tells apart keyword inputs of one shape. nullopt when none.
  std::optional<CallSignature> root_signature;
};

}  // namespace modrec::pt2
