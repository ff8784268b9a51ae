#include "load/executorch/etrecord.h"

#include <nlohmann/json.hpp>

#include "files/archive.h"
#include "load/pt2/program_json.h"
#include "util/error.h"
#include "util/json_text.h"

namespace modrec {
namespace {

const char* const kHint =
    "give the ETRecord that generate_etrecord (or to_edge_transform_and_lower's "
    "generate_etrecord=True) wrote with this .pte";

std::string entry(const Archive& archive, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (const ArchiveEntry* e = archive.find(name)) return archive.read(*e);
  throw Error(Exit::bad_input, "ETRecord has no " + names.front(), archive.path(), kHint);
}

// A node's first output's shape, from tensor_values (as a .pt2's); [] for a value of no tensor.
Shape output_shape(const nlohmann::json& node, const nlohmann::json& values) {
  const auto& outputs = node.at("outputs");
  if (outputs.empty() || !outputs[0].contains("as_tensor")) return {};
  const auto meta = values.find(outputs[0]["as_tensor"].at("name").get<std::string>());
  return meta == values.end() ? Shape{} : pt2::tensor_meta(*meta).sizes;
}

std::vector<EtRecordNode> read_nodes(const nlohmann::json& program) {
  const auto& graph = program.at("graph_module").at("graph");
  std::vector<EtRecordNode> nodes;
  for (const auto& node : graph.at("nodes")) {
    const auto& meta = node.at("metadata");
    EtRecordNode n;
    if (meta.contains("debug_handle"))
      n.debug_handle = std::stoll(meta["debug_handle"].get<std::string>());
    if (meta.contains("nn_module_stack"))
      for (pt2::StackEntry& e : pt2::parse_module_stack(meta["nn_module_stack"].get<std::string>()))
        if (!e.path.empty()) n.stack.push_back(std::move(e));
    n.shape = output_shape(node, graph.at("tensor_values"));
    nodes.push_back(std::move(n));
  }
  return nodes;
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

EtRecord read_etrecord(const std::string& path) {
  const Archive archive = Archive::open(path);
  if (!archive.has("ETRECORD_V0"))
    throw Error(Exit::bad_input, "not an ETRecord (a zip without ETRECORD_V0)", path, kHint);
  try {
    EtRecord record;
    // Python's json writes the edge program's non-finite floats bare (-Infinity), as
    // ExecuTorch's own reader accepts them.
    record.nodes = read_nodes(read_json(
        entry(archive, {"edge_dialect_exported_program/forward", "edge_dialect_exported_program"}),
        JsonLimits{.non_finite = true}));
    record.handles = read_handles(read_json(entry(archive, {"debug_handle_map"})));
    return record;
  } catch (const nlohmann::json::exception& e) {
    throw Error(Exit::bad_input, std::string("ETRecord is malformed: ") + e.what(), path, kHint);
  } catch (const std::logic_error&) {  // std::stoll
    throw Error(Exit::bad_input, "ETRecord is malformed: a debug handle is no number", path, kHint);
  }
}

}  // namespace modrec
