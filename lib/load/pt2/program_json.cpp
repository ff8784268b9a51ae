#include "load/pt2/program_json.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include "util/error.h"
#include "util/text.h"

namespace modrec::pt2 {
namespace {

using nlohmann::json;

// Strict export traces torch.cond's branches with the exported module wrapped as "_export_root":
// their stacks hold that wrapper's entry and paths below it ("_export_root.a" is "a").
constexpr std::string_view kExportRoot = "_export_root";

// "L__self__,,__main__.Net;L__self__b,b,__main__.Block": entries "key,path,type", outermost first.
std::vector<StackEntry> module_stack(const json& metadata) {
  std::vector<StackEntry> out;
  auto it = metadata.find("nn_module_stack");
  if (it == metadata.end()) return out;
  for (const std::string& entry : split(it->get<std::string>(), ';')) {
    std::vector<std::string> parts = split(entry, ',');
    if (parts.size() != 3 || parts[1] == kExportRoot) continue;
    if (parts[1].starts_with(std::string(kExportRoot) + "."))
      parts[1] = parts[1].substr(kExportRoot.size() + 1);
    out.push_back({parts[0], parts[1], parts[2]});
  }
  return out;
}

// The value an Argument union of a graph's input names: {"as_tensor": {"name": "x"}}.
std::string input_name(const json& argument) {
  const json& v = argument.begin().value();
  if (v.is_object() && v.contains("name")) return v.at("name").get<std::string>();
  if (v.is_object() && v.contains("as_name")) return v.at("as_name").get<std::string>();
  return "";
}

Node node(const json& j);

Graph graph(const json& j) {
  Graph g;
  for (const json& in : j.at("inputs")) g.inputs.push_back(input_name(in));
  for (const json& out : j.at("outputs")) g.outputs.push_back(out);
  for (const json& n : j.at("nodes")) g.nodes.push_back(node(n));
  return g;
}

Node node(const json& j) {
  Node n{j.at("name").get<std::string>(), j.at("target").get<std::string>(), {}, {}, {}, {}};
  for (const json& in : j.at("inputs")) {
    json arg = in.at("arg");
    if (arg.contains("as_graph")) {  // kept once, in `graphs`: its names are not the node's
      n.graphs.push_back(graph(arg.at("as_graph").at("graph")));
      arg = {{"as_graph", n.graphs.size() - 1}};
    }
    n.inputs.push_back({in.at("name").get<std::string>(), std::move(arg),
                        in.value("kind", 1) == 2});  // ArgumentKind: 1 positional, 2 keyword
  }
  for (const json& out : j.at("outputs")) n.outputs.push_back(out);
  n.module_stack = module_stack(j.value("metadata", json::object()));
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
  if (arg.contains("as_tensor")) return arg.at("as_tensor").at("name").get<std::string>();
  return "";
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
    return {K::constant_input, body.at("name").get<std::string>(), "", body.at("value")};
  return {K::other, kind, ""};
}

OutputSpec output_spec(const json& j) {
  const std::string kind = j.begin().key();
  const json& body = j.begin().value();
  OutputSpec spec{body.at("arg"), kind == "user_output", ""};
  if (kind == "buffer_mutation") spec.buffer = body.at("buffer_name").get<std::string>();
  return spec;
}

// signature.out_spec is a JSON string: [protocol, tree].
json root_out_spec(const json& call) {
  const json& signature = call.value("signature", json());
  if (signature.is_null() || !signature.contains("out_spec")) return json();
  const json spec = json::parse(signature.at("out_spec").get<std::string>());
  return spec.is_array() && spec.size() == 2 ? spec[1] : json();
}

void check_version(const json& doc, const std::string& file) {
  const json& v = doc.at("schema_version");
  const int major = v.at("major").get<int>();
  if (major == kSchemaMajor) return;
  throw Error(Exit::bad_input,
              "export schema version " + std::to_string(major) + "." +
                  std::to_string(v.at("minor").get<int>()) + " is not supported (modrec reads " +
                  std::to_string(kSchemaMajor) + ".x, torch 2.8 to 2.14)",
              file, "save the program again with torch.export.save from torch 2.8 to 2.14");
}

}  // namespace

Program parse_program(const json& doc, const std::string& file) {
  check_version(doc, file);
  Program p;
  p.schema_major = doc.at("schema_version").at("major").get<int>();
  p.schema_minor = doc.at("schema_version").at("minor").get<int>();
  p.torch_version = doc.value("torch_version", "");
  p.range_constraints = range_constraints(doc);
  const json& gm = doc.at("graph_module");
  const json& graph = gm.at("graph");
  for (const json& n : graph.at("nodes")) p.nodes.push_back(node(n));
  for (const json& spec : gm.at("signature").at("input_specs"))
    p.inputs.push_back(input_spec(spec));
  for (const json& spec : gm.at("signature").at("output_specs"))
    p.outputs.push_back(output_spec(spec));
  for (const auto& [name, meta] : graph.at("tensor_values").items())
    p.tensor_values.emplace(name, tensor_meta(meta));
  for (const json& call : gm.at("module_call_graph")) {
    p.module_paths.push_back(call.at("fqn").get<std::string>());
    if (p.module_paths.back().empty()) p.out_spec = root_out_spec(call);
  }
  return p;
}

}  // namespace modrec::pt2
