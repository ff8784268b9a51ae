#include "load/pt2/program_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>
#include <map>
#include <string_view>

#include "load/pt2/program_check.h"
#include "util/error.h"
#include "util/text.h"

namespace modrec::pt2 {
namespace {

using nlohmann::json;

// Strict export traces torch.cond's branches with the exported module wrapped as "_export_root":
// their stacks hold that wrapper's entry and paths below it ("_export_root.a" is "a").
constexpr std::string_view kExportRoot = "_export_root";

std::vector<StackEntry> module_stack(const json& metadata) {
  auto it = metadata.find("nn_module_stack");
  if (it == metadata.end()) return {};
  return parse_module_stack(it->get<std::string>());
}

// A part of the program that is not what the schema says, found while reading a node: `field`
// names where ("input dim"), `what` what is wrong. node() adds the node and its operator.
struct Malformed {
  std::string field;
  std::string what;
};
// The same, placed: "node relu_1 (torch.ops.aten.relu.default): its input self ...".
struct MalformedNode {
  std::string text;
};

// JSON's name for the type of `v`, for messages: "string", "number", ...
std::string type_name(const json& v) { return v.type_name(); }

const json& member(const json& j, const char* key, const std::string& field) {
  if (!j.is_object() || !j.contains(key))
    throw Malformed{field, std::string("has no \"") + key + "\""};
  return j.at(key);
}

std::string text_of(const json& v, const std::string& field) {
  if (!v.is_string()) throw Malformed{field, "holds a " + type_name(v) + " where a string goes"};
  return v.get<std::string>();
}

int64_t int_of(const json& v, const std::string& field) {
  if (!v.is_number_integer())
    throw Malformed{field, "holds a " + type_name(v) + " where an integer goes"};
  return v.get<int64_t>();
}

bool bool_of(const json& v, const std::string& field) {
  if (!v.is_boolean()) throw Malformed{field, "holds a " + type_name(v) + " where a bool goes"};
  return v.get<bool>();
}

// torch.export writes a float JSON has no number for as a string (torch/_export/serde's
// serialize.py): "Infinity", "-Infinity" (a decomposed softmax's mask fill), "NaN".
double float_of(const json& v, const std::string& field) {
  if (v.is_number()) return v.get<double>();
  const std::string text = v.is_string() ? v.get<std::string>() : "";
  if (text == "Infinity") return std::numeric_limits<double>::infinity();
  if (text == "-Infinity") return -std::numeric_limits<double>::infinity();
  if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
  throw Malformed{field, "holds " + (v.is_string() ? "\"" + text + "\"" : "a " + type_name(v)) +
                             " where a float goes"};
}

const json& array_of(const json& v, const std::string& field) {
  if (!v.is_array()) throw Malformed{field, "holds a " + type_name(v) + " where a list goes"};
  return v;
}

// A TensorArgument: {"name": "x"}.
std::string tensor_name(const json& v, const std::string& field) {
  return text_of(member(v, "name", field), field);
}

// An OptionalTensorArgument: {"as_tensor": {...}} or {"as_none": ...}; "" for None.
std::string optional_tensor_name(const json& v, const std::string& field) {
  if (v.is_object() && v.contains("as_none")) return "";
  return tensor_name(member(v, "as_tensor", field), field);
}

using Kind = Argument::Kind;

// A SymInt/SymFloat/SymBool argument: {"as_name": "s0"} (a value the graph computes) or a
// number ({"as_int": 3}, {"as_float": 0.5}, {"as_bool": true}).
void add_sym(const json& v, Kind kind, Argument& a, const std::string& field) {
  if (v.is_object() && v.contains("as_name")) {
    a.names.push_back(text_of(v.at("as_name"), field));
    a.ints.push_back(0);
    return;
  }
  a.names.emplace_back();
  if (kind == Kind::sym_float)
    a.floats.push_back(float_of(member(v, "as_float", field), field));
  else if (kind == Kind::sym_bool)
    a.ints.push_back(bool_of(member(v, "as_bool", field), field));
  else
    a.ints.push_back(int_of(member(v, "as_int", field), field));
}

void read_payload(Kind kind, const json& v, Argument& a, const std::string& field) {
  switch (kind) {
    case Kind::none:
    case Kind::unsupported:
    case Kind::graph:  // node() reads the graph itself
      return;
    case Kind::tensor:
      a.names.push_back(tensor_name(v, field));
      return;
    case Kind::optional_tensor:
      a.names.push_back(optional_tensor_name(v, field));
      return;
    case Kind::tensors:
      for (const json& item : array_of(v, field)) a.names.push_back(tensor_name(item, field));
      return;
    case Kind::optional_tensors:
      for (const json& item : array_of(v, field))
        a.names.push_back(optional_tensor_name(item, field));
      return;
    case Kind::int_:
    case Kind::scalar_type:
    case Kind::memory_format:
    case Kind::layout:
      a.ints.push_back(int_of(v, field));
      return;
    case Kind::ints:
      for (const json& item : array_of(v, field)) a.ints.push_back(int_of(item, field));
      return;
    case Kind::float_:
      a.floats.push_back(float_of(v, field));
      return;
    case Kind::floats:
      for (const json& item : array_of(v, field)) a.floats.push_back(float_of(item, field));
      return;
    case Kind::bool_:
      a.ints.push_back(bool_of(v, field));
      return;
    case Kind::bools:
      for (const json& item : array_of(v, field)) a.ints.push_back(bool_of(item, field));
      return;
    case Kind::string:
    case Kind::op:
      a.strings.push_back(text_of(v, field));
      return;
    case Kind::strings:
      for (const json& item : array_of(v, field)) a.strings.push_back(text_of(item, field));
      return;
    case Kind::sym_int:
    case Kind::sym_float:
    case Kind::sym_bool:
      add_sym(v, kind, a, field);
      return;
    case Kind::sym_ints:
      for (const json& item : array_of(v, field)) add_sym(item, Kind::sym_int, a, field);
      return;
    case Kind::device: {
      a.strings.push_back(text_of(member(v, "type", field), field));
      const json index = v.value("index", json());
      a.ints.push_back(index.is_null() ? -1 : int_of(index, field));
      return;
    }
  }
}

// An Argument union: an object of one tag.
Argument argument(const json& j, const std::string& field) {
  if (!j.is_object() || j.size() != 1) throw Malformed{field, "is not an argument of one type tag"};
  const std::string tag = j.begin().key();
  const std::optional<Kind> kind = kind_of_tag(tag);
  if (!kind) throw Malformed{field, "has the unknown type tag " + tag};
  Argument a{*kind, {}, {}, {}, {}};
  if (a.kind == Kind::unsupported) a.strings.push_back(tag);
  read_payload(a.kind, j.begin().value(), a, field);
  return a;
}

// The value a graph's input names: an Argument union naming one value ({"as_tensor": {"name":
// "x"}}, {"as_sym_int": {"as_name": "s0"}}); "" for one that names none (a constant).
std::string input_name(const json& j, const std::string& field) {
  const std::vector<std::string> names = value_names(argument(j, field));
  return names.size() == 1 ? names[0] : "";
}

// ExecuTorch's serializer writes a node's debug handle as Python's str() of its int ("7").
int64_t debug_handle(const json& metadata) {
  const auto it = metadata.find("debug_handle");
  if (it == metadata.end()) return -1;
  const std::string text = text_of(*it, "debug_handle");
  int64_t handle = -1;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), handle);
  if (error != std::errc() || end != text.data() + text.size() || handle < 0)
    throw Malformed{"debug_handle", "holds \"" + text + "\" where a number goes"};
  return handle;
}

// Subgraphs nest through their nodes' graph arguments (cond within a no_grad block within a map,
// ...): a depth no real program nears bounds the reader's recursion, whatever the file holds.
constexpr int kMaxGraphDepth = 64;

Node node(const json& j, int depth);

Graph graph(const json& j, int depth, const std::string& field) {
  if (depth > kMaxGraphDepth)
    throw Malformed{field, "nests subgraphs more than " + std::to_string(kMaxGraphDepth) +
                               " deep, more than modrec reads"};
  Graph g;
  for (const json& in : array_of(member(j, "inputs", field), field))
    g.inputs.push_back(input_name(in, field + " input"));
  for (const json& out : array_of(member(j, "outputs", field), field))
    g.outputs.push_back(argument(out, field + " output"));
  for (const json& n : array_of(member(j, "nodes", field), field))
    g.nodes.push_back(node(n, depth));
  return g;
}

// A node's inputs: each {"name", "arg", "kind"}; a graph argument read into `graphs`, its index
// kept in place (its names are the subgraph's own, not the node's).
void node_inputs(const json& j, Node& n, int depth) {
  for (const json& in : array_of(member(j, "inputs", "inputs"), "inputs")) {
    const std::string name = text_of(member(in, "name", "input"), "input name");
    const std::string field = "input " + name;
    const json& arg = member(in, "arg", field);
    NodeArg a{name, argument(arg, field), in.value("kind", 1) == 2};  // 1 positional, 2 keyword
    if (a.value.kind == Kind::graph) {
      n.graphs.push_back(graph(member(arg.begin().value(), "graph", field), depth + 1, field));
      a.value.ints = {static_cast<int64_t>(n.graphs.size() - 1)};
    }
    n.inputs.push_back(std::move(a));
  }
}

Node node(const json& j, int depth) {
  Node n;
  try {
    n.name = text_of(member(j, "name", "name"), "name");
    n.target = text_of(member(j, "target", "target"), "target");
    node_inputs(j, n, depth);
    for (const json& out : array_of(member(j, "outputs", "outputs"), "outputs"))
      n.outputs.push_back(argument(out, "output"));
    const json metadata = j.value("metadata", json::object());
    n.module_stack = module_stack(metadata);
    n.debug_handle = debug_handle(metadata);
  } catch (const Malformed& m) {
    throw MalformedNode{"node " + (n.name.empty() ? "?" : n.name) + " (" +
                        (n.target.empty() ? "?" : n.target) + "): its " + m.field + " " + m.what};
  }
  return n;
}

// SymInts: {"as_int": 4} or {"as_expr": ...}, symbolic as -1.
std::vector<int64_t> sym_ints(const json& list) {
  std::vector<int64_t> out;
  for (const json& v : list)
    out.push_back(v.contains("as_int") ? v.at("as_int").get<int64_t>() : -1);
  return out;
}

// A size's symbol: as_expr's expr_str "s70" or "Symbol('s70', positive=True, integer=True)";
// "" for a number or an expression of several symbols ("2*s70").
std::string size_symbol(const json& v) {
  if (!v.contains("as_expr")) return "";
  std::string expr = v.at("as_expr").at("expr_str").get<std::string>();
  const std::string wrapped = "Symbol('";
  if (expr.starts_with(wrapped)) {
    const size_t end = expr.find('\'', wrapped.size());
    expr = end == std::string::npos ? "" : expr.substr(wrapped.size(), end - wrapped.size());
  }
  const bool plain = !expr.empty() && std::ranges::all_of(expr, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
  return plain ? expr : "";
}

std::map<std::string, SymbolRange> range_constraints(const json& doc) {
  std::map<std::string, SymbolRange> out;
  const auto bound = [](const json& v) {
    return v.is_number_integer() ? std::optional<int64_t>(v.get<int64_t>()) : std::nullopt;
  };
  const json ranges = doc.value("range_constraints", json::object());  // items() does not own it
  for (const auto& [symbol, range] : ranges.items())
    out[symbol] = {bound(range.value("min_val", json())), bound(range.value("max_val", json()))};
  return out;
}

}  // namespace

TensorMeta tensor_meta(const json& j) {
  TensorMeta meta;
  meta.dtype = j.at("dtype").get<int>();
  meta.layout = j.value("layout", 7);
  meta.sizes = sym_ints(j.at("sizes"));
  for (const json& size : j.at("sizes")) meta.size_symbols.push_back(size_symbol(size));
  if (j.contains("strides")) meta.strides = sym_ints(j.at("strides"));
  if (j.contains("storage_offset"))
    meta.storage_offset = sym_ints(json::array({j.at("storage_offset")}))[0];
  meta.requires_grad = j.value("requires_grad", false);
  return meta;
}

namespace {

// The name of the graph value an input spec feeds: {"arg": {"name": "x"}} or an Argument union.
std::string spec_value(const json& arg) {
  if (arg.contains("name")) return arg.at("name").get<std::string>();
  return input_name(arg, "input spec");
}

InputSpec input_spec(const json& j) {
  using K = InputSpec::Kind;
  const std::string kind = j.begin().key();
  const json& body = j.begin().value();
  if (kind == "parameter")
    return {K::parameter, spec_value(body.at("arg")), body.at("parameter_name")};
  if (kind == "buffer") return {K::buffer, spec_value(body.at("arg")), body.at("buffer_name")};
  if (kind == "tensor_constant")
    return {K::tensor_constant, spec_value(body.at("arg")), body.at("tensor_constant_name")};
  if (kind == "user_input") return {K::user_input, spec_value(body.at("arg")), ""};
  if (kind == "constant_input")
    return {K::constant_input, body.at("name").get<std::string>(), "",
            argument(body.at("value"), "constant input")};
  return {K::other, kind, ""};
}

// The value an output spec reads: a user output's an Argument union, a mutation's or a loss's a
// TensorArgument ({"name": "x"}: the schema's BufferMutationSpec, ...).
Argument output_value(const json& arg) {
  if (arg.is_object() && arg.contains("name"))
    return {Argument::Kind::tensor, {text_of(arg.at("name"), "output spec")}, {}, {}, {}};
  return argument(arg, "output spec");
}

OutputSpec output_spec(const json& j) {
  const std::string kind = j.begin().key();
  const json& body = j.begin().value();
  OutputSpec spec{output_value(body.at("arg")), kind == "user_output", ""};
  if (kind == "buffer_mutation") spec.buffer = body.at("buffer_name").get<std::string>();
  return spec;
}

// A Hugging Face ModelOutput (transformers.modeling_outputs.Seq2SeqModelOutput,
// BaseModelOutputWithPoolingAndCrossAttentions, ...): an OrderedDict of its fields that are not
// None, which transformers registers with pytree as its keys (the context) and values; torchinfo
// sizes it as the dict it is. Every such class has "Output" in its name; transformers' other
// pytree types (its caches) do not.
bool is_model_output(const std::string& type) {
  return type.rfind("transformers.", 0) == 0 &&
         type.find("Output", type.rfind('.')) != std::string::npos;
}

// torch.utils._pytree's JSON spec ({"type": "builtins.dict", "context": "[\"a\"]",
// "children_spec": [...]}, type null for a leaf) as a TreeSpec; `depth` bounded by the JSON's.
TreeSpec tree_spec(const json& j, const std::string& field) {
  TreeSpec spec;
  const json& type = member(j, "type", field);
  if (type.is_null()) return spec;
  const std::string name = text_of(type, field + " type");
  using T = TreeSpec::Type;
  spec.type = name == "builtins.tuple"                                       ? T::tuple
              : name == "builtins.list"                                      ? T::list
              : name == "builtins.dict" || name == "collections.OrderedDict" ? T::dict
              : name == "builtins.NoneType"                                  ? T::none
              : is_model_output(name)                                        ? T::dict
                                                                             : T::other;
  for (const json& child : array_of(member(j, "children_spec", field), field))
    spec.children.push_back(tree_spec(child, field));
  if (spec.type == T::dict) {  // the keys: its context, a JSON list in a string; strings only
    const json keys = read_json(text_of(member(j, "context", field), field + " context"));
    for (const json& key : array_of(keys, field + " context"))
      spec.keys.push_back(text_of(key, field));
    if (spec.keys.size() != spec.children.size())
      throw Malformed{field, "names " + std::to_string(spec.keys.size()) + " keys for " +
                                 std::to_string(spec.children.size()) + " values"};
  }
  return spec;
}

// A spec string: [protocol, tree]; nullopt when it is no such list.
std::optional<TreeSpec> spec_string(const std::string& text, const std::string& field) {
  if (json_depth(text) > kMaxJsonDepth)
    throw Malformed{field, "nests more than " + std::to_string(kMaxJsonDepth) + " deep"};
  const json spec = read_json(text);
  if (!spec.is_array() || spec.size() != 2) return std::nullopt;
  return tree_spec(spec[1], field);
}

std::optional<TreeSpec> root_out_spec(const json& call) {
  const json& signature = call.value("signature", json());
  if (signature.is_null() || !signature.contains("out_spec")) return std::nullopt;
  return spec_string(text_of(signature.at("out_spec"), "out_spec"), "out_spec");
}

// A signature's in_spec when it is a tuple of forward's positional arguments and a dict of its
// keyword ones, whose leaves are the call's `inputs`. nullopt for another spec: a part of the
// signature modrec only reads where it can, never a reason to refuse the file.
std::optional<TreeSpec> arguments_in_spec(const json& signature, size_t inputs) {
  const json& in_spec = signature.value("in_spec", json());
  if (!in_spec.is_string()) return std::nullopt;
  std::optional<TreeSpec> spec;
  try {
    spec = spec_string(in_spec.get<std::string>(), "in_spec");
  } catch (const Malformed&) {
    return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
  using T = TreeSpec::Type;
  if (!spec || spec->type != T::tuple || spec->children.size() != 2 ||
      spec->children[0].type != T::tuple || spec->children[1].type != T::dict ||
      leaf_count(*spec) != inputs)
    return std::nullopt;
  return spec;
}

// The values of a module_call_graph entry's signature.
CallSignature call_signature(const json& signature) {
  CallSignature s;
  for (const json& a : signature.at("inputs")) s.inputs.push_back(argument(a, "signature input"));
  for (const json& a : signature.at("outputs"))
    s.outputs.push_back(argument(a, "signature output"));
  s.in_spec = arguments_in_spec(signature, s.inputs.size());
  return s;
}

// One module_call_graph entry: a module (named_modules() order), its first call's signature; a
// later call's ("c@1", preserve_module_call_signature's) its signature only.
void module_call(const json& call, Program& p) {
  const std::string fqn = call.at("fqn").get<std::string>();
  if (fqn.find('@') == std::string::npos) p.module_paths.push_back(fqn);
  if (fqn.empty()) p.out_spec = root_out_spec(call);
  const json& signature = call.value("signature", json());
  if (!signature.is_object() || !signature.contains("inputs") || !signature.contains("outputs"))
    return;
  if (fqn.empty())
    p.root_signature = call_signature(signature);
  else
    p.call_signatures.emplace(fqn, call_signature(signature));
}

void check_version(const json& doc, const std::string& file, const ProgramSource& source) {
  const json& v = doc.at("schema_version");
  const int major = v.at("major").get<int>();
  if (major == source.schema_major) return;
  throw Error(Exit::bad_input,
              source.file_kind + " has export schema version " + std::to_string(major) + "." +
                  std::to_string(v.at("minor").get<int>()) + ", not supported (modrec reads " +
                  std::to_string(source.schema_major) + ".x, " + source.writers + ")",
              file, source.hint + " from " + source.writers);
}

Program parse_checked(const json& doc, const std::string& file, const ProgramSource& source) {
  check_version(doc, file, source);
  Program p;
  p.schema_major = doc.at("schema_version").at("major").get<int>();
  p.schema_minor = doc.at("schema_version").at("minor").get<int>();
  p.torch_version = doc.value("torch_version", "");
  p.range_constraints = range_constraints(doc);
  const json& gm = doc.at("graph_module");
  const json& graph = gm.at("graph");
  for (const json& n : graph.at("nodes")) p.nodes.push_back(node(n, 0));
  for (const json& spec : gm.at("signature").at("input_specs"))
    p.inputs.push_back(input_spec(spec));
  for (const json& spec : gm.at("signature").at("output_specs"))
    p.outputs.push_back(output_spec(spec));
  for (const auto& [name, meta] : graph.at("tensor_values").items())
    p.tensor_values.emplace(name, tensor_meta(meta));
  for (const json& call : gm.at("module_call_graph")) module_call(call, p);
  return p;
}

Error malformed(const std::string& file, const std::string& what,
                const ProgramSource& source = {}) {
  return Error(Exit::bad_input, source.file_kind + " is malformed: " + what, file, source.hint);
}

}  // namespace

Program parse_program(const json& doc, const std::string& file, const ProgramSource& source) {
  try {
    Program program = parse_checked(doc, file, source);
    check_program(program);
    return program;
  } catch (const MalformedNode& m) {
    throw malformed(file, m.text, source);
  } catch (const Malformed& m) {
    throw malformed(file, "the program's " + m.field + " " + m.what, source);
  } catch (const ProgramCheckFailed& e) {
    throw malformed(file, e.what(), source);
  }
}

std::optional<TreeSpec> parse_tree_spec(const std::string& text) {
  try {
    return spec_string(text, "spec");
  } catch (const Malformed&) {
    return std::nullopt;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

Program read_program(const std::string& text, const std::string& file) {
  if (json_depth(text) > kMaxJsonDepth)
    throw malformed(file, "the program nests its JSON more than " + std::to_string(kMaxJsonDepth) +
                              " deep (subgraphs within subgraphs), more than modrec reads");
  return parse_program(read_json(text), file);
}

std::vector<StackEntry> parse_module_stack(const std::string& text) {
  std::vector<StackEntry> out;
  for (const std::string& entry : split(text, ';')) {
    std::vector<std::string> parts = split(entry, ',');
    if (parts.size() != 3 || parts[1] == kExportRoot) continue;
    if (parts[1].starts_with(std::string(kExportRoot) + "."))
      parts[1] = parts[1].substr(kExportRoot.size() + 1);
    out.push_back({parts[0], parts[1], parts[2]});
  }
  return out;
}

}  // namespace modrec::pt2
