// models/<name>.json read into a typed Program: only the parts modrec uses, by the schema's field
// names, each argument's tag and payload checked as it is read (program.h's Argument), then the
// whole program checked (program_check.h).
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

#include "load/pt2/program.h"
#include "util/json_text.h"

namespace modrec::pt2 {

// The schema major version this reader knows (torch 2.8 to 2.14 write 8.x); torch's own reader
// refuses another major too.
constexpr int kSchemaMajor = 8;

// How deep the program's JSON may nest. A subgraph adds 7 levels (node, inputs, input, arg,
// as_graph, graph, nodes), a node's own arguments about 6: this admits subgraphs nested about
// 60 deep, which no exported program nears, and keeps the parser's, copies' and destructors'
// recursion (nlohmann's tree is recursive) far from any stack's end.
constexpr size_t kMaxJsonDepth = 512;

// The bound is checked (util/json_text.h, json_depth) before nlohmann's parser, whose tree (and
// every copy, destruction and walk of it) recurses as deep.

// Who wrote a program's JSON, for its version check and messages: torch.export.save's
// models/<name>.json (the default), or ExecuTorch's copy of the serializer, whose edge programs
// (an ETRecord's) carry the same fields at its own schema version.
struct ProgramSource {
  int schema_major = kSchemaMajor;
  std::string file_kind = "export archive";                            // "<file_kind> is malformed"
  std::string writers = "torch 2.8 to 2.14";                           // who writes schema_major
  std::string hint = "save the program again with torch.export.save";  // what to do
};

// ExecuTorch 1.x's schema major (executorch/exir/serde/schema.py, SCHEMA_VERSION 5.x).
constexpr int kExecuTorchSchemaMajor = 5;

// One TensorMeta of tensor_values or of a weights config.
TensorMeta tensor_meta(const nlohmann::json& meta);

// Error(bad_input) naming `file` and, for a node, the node, its operator and the field: an
// argument of an unknown type tag or whose payload is not of its tag's type, a debug handle that
// is no number, a value read before it is defined, another schema major version than `source`'s.
// Throws nlohmann::json's exceptions on a field missing or mistyped outside the graph's nodes.
Program parse_program(const nlohmann::json& doc, const std::string& file,
                      const ProgramSource& source = {});

// A pytree spec string ("[protocol, tree]", as a signature's out_spec or an AOTInductor package's
// call spec holds it) typed; nullopt when it is not one.
std::optional<TreeSpec> parse_tree_spec(const std::string& text);

// A node's nn_module_stack as the archive writes it, "L__self__,,__main__.Net;L__self__b,b,
// __main__.Block" (entries "key,path,type", outermost first), strict export's "_export_root"
// wrapper left out of it.
std::vector<StackEntry> parse_module_stack(const std::string& text);

// parse_program of the JSON `text`, its nesting bounded (kMaxJsonDepth) before it is parsed.
Program read_program(const std::string& text, const std::string& file);

}  // namespace modrec::pt2
