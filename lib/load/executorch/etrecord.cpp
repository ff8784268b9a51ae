#include "load/executorch/etrecord.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "files/archive.h"
#include "load/pt2/exported_tree.h"
#include "load/pt2/program_json.h"
#include "load/pt2/schema_enums.h"
#include "util/error.h"
#include "util/json_text.h"

namespace modrec {

const char* const kEtRecordHint =
    "give the ETRecord that generate_etrecord (or to_edge_transform_and_lower's "
    "generate_etrecord=True) wrote with this .pte";

namespace {

// The ETRecord's edge program as ExecuTorch's serializer writes it: the .pt2 reader's fields at
// ExecuTorch's schema version.
pt2::ProgramSource edge_program_source() {
  return {pt2::kExecuTorchSchemaMajor, "ETRecord's edge program", "ExecuTorch 1.x", kEtRecordHint};
}

std::string entry(const Archive& archive, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (const ArchiveEntry* e = archive.find(name)) return archive.read(*e);
  throw Error(Exit::bad_input, "ETRecord has no " + names.front(), archive.path(), kEtRecordHint);
}

// The value `argument` names, as tensor_values describes it; nullopt for one that is no tensor.
std::optional<pt2::TensorMeta> tensor_of(const pt2::Argument& argument,
                                         const pt2::Program& program) {
  if (argument.kind != pt2::Argument::Kind::tensor) return std::nullopt;
  const auto meta = program.tensor_values.find(argument.names[0]);
  if (meta == program.tensor_values.end()) return std::nullopt;
  return meta->second;
}

EtRecordNode record_node(const pt2::Node& node, const pt2::Program& program) {
  EtRecordNode n{node.debug_handle, {}, {}, 0};
  for (const pt2::StackEntry& e : node.module_stack)
    if (!e.path.empty()) n.stack.push_back(e);
  if (!node.outputs.empty())
    if (auto meta = tensor_of(node.outputs[0], program)) {
      n.shape = meta->sizes;
      n.dtype = meta->dtype;
    }
  return n;
}

// The parameters as meta tensors of the sizes and dtypes the edge program declares, leaves as
// nn.Parameter: what the tree's rows count. Error(bad_input) for one it declares no dense dtype
// or static size of (no edge program has one).
std::map<std::string, pt2::StoredTensor> parameters(const pt2::Program& program,
                                                    const std::string& path) {
  std::map<std::string, pt2::StoredTensor> out;
  for (const pt2::InputSpec& in : program.inputs) {
    if (in.kind != pt2::InputSpec::Kind::parameter) continue;
    const auto meta = program.tensor_values.find(in.value);
    const auto dtype =
        meta == program.tensor_values.end() ? std::nullopt : pt2::scalar_type(meta->second.dtype);
    const auto malformed = [&] {
      return Error(Exit::bad_input,
                   "ETRecord's edge program is malformed: its parameter " + in.target +
                       " has no tensor of a known dtype and static size",
                   path, kEtRecordHint);
    };
    if (!dtype || std::ranges::any_of(meta->second.sizes, [](int64_t s) { return s < 0; }))
      throw malformed();
    at::Tensor value;
    try {
      value = at::empty(meta->second.sizes, at::TensorOptions().dtype(*dtype).device(at::kMeta));
    } catch (const c10::Error&) {  // sizes whose element count overflows
      throw malformed();
    }
    if (at::isFloatingType(*dtype) || at::isComplexType(*dtype))
      value.requires_grad_(meta->second.requires_grad);
    out.emplace(in.target, pt2::StoredTensor{value, true});
  }
  return out;
}

void read_program(const pt2::Program& program, EtRecord& record) {
  for (const pt2::Node& node : program.nodes) record.nodes.push_back(record_node(node, program));
  record.tree = pt2::exported_tree(
      pt2::ExportedArchive{record.path, program, parameters(program, record.path), {}});
  for (const pt2::InputSpec& in : program.inputs)
    if (in.kind == pt2::InputSpec::Kind::user_input) {
      pt2::Argument value{pt2::Argument::Kind::tensor, {in.value}, {}, {}, {}};
      record.inputs.push_back(tensor_of(value, program));
    }
  for (const pt2::OutputSpec& out : program.outputs)
    if (out.user) record.outputs.push_back(tensor_of(out.value, program));
}

// {"forward": {"0": 1, "4": [6, 7]}}: an instruction's handle, or several.
std::map<int64_t, std::vector<int64_t>> read_handles(const nlohmann::json& map) {
  std::map<int64_t, std::vector<int64_t>> handles;
  for (const auto& [instruction, told] : map.at("forward").items()) {
    std::vector<int64_t>& h = handles[std::stoll(instruction)];
    if (told.is_array())
      for (const auto& one : told) h.push_back(one.get<int64_t>());
    else
      h.push_back(told.get<int64_t>());
  }
  return handles;
}

}  // namespace

EtRecord parse_etrecord(const std::string& edge_program, const std::string& debug_handle_map,
                        const std::string& path) {
  try {
    EtRecord record;
    record.path = path;
    // Python's json writes the edge program's non-finite floats bare (-Infinity), as
    // ExecuTorch's own reader accepts them.
    const pt2::Program program = pt2::parse_program(
        read_json(edge_program, JsonLimits{.max_depth = pt2::kMaxJsonDepth, .non_finite = true}),
        path, edge_program_source());
    read_program(program, record);
    record.handles = read_handles(read_json(debug_handle_map));
    return record;
  } catch (const nlohmann::json::exception& e) {
    throw Error(Exit::bad_input, std::string("ETRecord is malformed: ") + e.what(), path,
                kEtRecordHint);
  } catch (const std::logic_error&) {  // std::stoll
    throw Error(Exit::bad_input,
                "ETRecord is malformed: an instruction of its debug_handle_map "
                "is no number",
                path, kEtRecordHint);
  }
}

EtRecord read_etrecord(const std::string& path) {
  const Archive archive = Archive::open(path);
  if (!archive.has("ETRECORD_V0"))
    throw Error(Exit::bad_input, "not an ETRecord (a zip without ETRECORD_V0)", path,
                kEtRecordHint);
  return parse_etrecord(
      entry(archive, {"edge_dialect_exported_program/forward", "edge_dialect_exported_program"}),
      entry(archive, {"debug_handle_map"}), path);
}

}  // namespace modrec
