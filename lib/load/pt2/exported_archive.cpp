#include "load/pt2/exported_archive.h"

#include <ATen/ATen.h>

#include "files/archive.h"
#include "load/pt2/pickled_weight.h"
#include "load/pt2/program_json.h"
#include "load/pt2/schema_enums.h"
#include "load/pt2/stored_tensor.h"
#include "util/error.h"
#include "util/log.h"
#include "util/json_text.h"

namespace modrec::pt2 {
namespace {

using nlohmann::json;

const char* const kResave = "save the program again with torch.export.save";

Error damaged(const Archive& archive, const std::string& what) {
  return Error(Exit::bad_input, "export archive " + what, archive.path(), kResave);
}

const ArchiveEntry& entry_of(const Archive& archive, const std::string& name) {
  const ArchiveEntry* entry = archive.find(name);
  if (!entry) throw damaged(archive, "has no " + name);
  return *entry;
}

std::string entry_text(const Archive& archive, const std::string& name) {
  return archive.read(entry_of(archive, name));
}

// The program's name: "model" for models/model.json, the name torch.export.save gives it.
std::string model_name(const Archive& archive) {
  if (archive.has("models/model.json")) return "model";
  for (const ArchiveEntry& e : archive.entries()) {
    const size_t at = e.name.find("/models/");
    if (at != std::string::npos && e.name.size() > 5 && e.name.ends_with(".json"))
      return e.name.substr(at + 8, e.name.size() - at - 8 - 5);
  }
  // Its own layout says when torch.export.save wrote it: before torch 2.8, a single JSON file.
  if (archive.has("serialized_exported_program.json"))
    throw Error(Exit::bad_input,
                "export archive was written before torch 2.8 (serialized_exported_program.json), "
                "a format modrec does not read",
                archive.path(),
                "save the program again with torch.export.save of torch 2.8 or newer");
  throw damaged(archive, "has no program (models/*.json)");
}

// The tensor `meta` describes, stored in `entry`.
at::Tensor described_tensor(const ArchiveEntry& entry, const TensorMeta& meta,
                            const std::string& what, const Archive& archive, Weights weights) {
  const auto dtype = scalar_type(meta.dtype);
  if (!dtype || meta.layout != kStridedLayout)
    throw damaged(archive, "stores " + what + " with an unsupported dtype or layout");
  return stored_tensor(archive, entry, *dtype, meta.sizes, meta.strides, meta.storage_offset, what,
                       weights);
}

// A weight's or constant's file: data/<folder>/<path_name>.
bool is_tensor_file(const ArchiveEntry& e) {
  return (e.name.find("/data/weights/") != std::string::npos ||
          e.name.find("/data/constants/") != std::string::npos) &&
         !e.name.ends_with(".json");
}

// data/<folder>/<model>_<folder>_config.json: FQN -> {path_name, is_param, use_pickle,
// tensor_meta}. A weight tied between modules (T5's shared embedding) is one file under each of
// its FQNs: read once, one tensor under every name, as it is one nn.Parameter in eager PyTorch
// (counted once, stepped once, its gradient the sum of every use).
void read_stored(const Archive& archive, const std::string& folder, const std::string& model,
                 Weights weights, std::map<std::string, StoredTensor>& state) {
  const std::string config_name = "data/" + folder + "/" + model + "_" + folder + "_config.json";
  if (!archive.has(config_name)) return;  // older archives write no constants config
  const json config = read_json(entry_text(archive, config_name)).at("config");
  std::map<std::string, std::string> first_fqn;  // path_name and tensor_meta -> the first FQN
  for (const auto& [fqn, entry] : config.items()) {
    const std::string stored = entry.at("path_name").dump() + entry.at("tensor_meta").dump();
    if (auto tied = first_fqn.find(stored); tied != first_fqn.end()) {
      state[fqn] = state.at(tied->second);
      continue;
    }
    first_fqn.emplace(stored, fqn);
    const ArchiveEntry& file =
        entry_of(archive, "data/" + folder + "/" + entry.at("path_name").get<std::string>());
    const TensorMeta meta = tensor_meta(entry.at("tensor_meta"));
    const bool is_param = entry.value("is_param", false);
    at::Tensor value = entry.value("use_pickle", false)
                           ? read_pickled_weight(archive, file, fqn, weights)
                           : described_tensor(file, meta, fqn, archive, weights);
    if (is_param) value.requires_grad_(meta.requires_grad);  // leaves, as nn.Parameter
    state[fqn] = {value, is_param};
  }
}

// Every parameter, buffer and constant the graph takes must be stored.
void check_state(const Archive& archive, const ExportedArchive& exported) {
  using K = InputSpec::Kind;
  for (const InputSpec& in : exported.program.inputs)
    if ((in.kind == K::parameter || in.kind == K::buffer || in.kind == K::tensor_constant) &&
        !exported.state.count(in.target))
      throw damaged(archive, "has no stored tensor for " + in.target);
}

// The notes modrec.export adds: parsed, and checked to name a class for every module the
// program calls (else they are of another model). Without them modrec shows what the program
// alone says; with unusable ones too, after one warning.
std::optional<ExportNotes> read_notes(const Archive& archive, const Program& program) {
  const ArchiveEntry* entry = archive.find(kNotesEntry);
  if (!entry) return std::nullopt;
  try {
    ExportNotes notes = parse_export_notes(archive.read(*entry));
    for (const std::string& path : program.module_paths)
      if (!notes.types.count(path)) throw NotesError("no class for the module " + path);
    return notes;
  } catch (const NotesError& e) {
    log::warn(archive.path(), ": ", kNotesEntry, " is ignored (", first_line(e.what()),
              "): the table shows what the program alone says");
    return std::nullopt;
  }
}

// The module stacks modrec.export's notes lend a non-strict export's subgraphs (torch.cond's
// branches), to their nodes that have none.
void lend_subgraph_stacks(const ExportNotes& notes, Program& program) {
  for (Node& node : program.nodes) {
    auto lent = notes.subgraph_stacks.find(node.name);
    if (lent == notes.subgraph_stacks.end() || lent->second.size() != node.graphs.size()) continue;
    for (size_t g = 0; g < node.graphs.size(); ++g)
      for (Node& inner : node.graphs[g].nodes)
        if (auto stack = lent->second[g].find(inner.name);
            inner.module_stack.empty() && stack != lent->second[g].end())
          inner.module_stack = parse_module_stack(stack->second);
  }
}

ExportedArchive read_checked(const Archive& archive, Weights weights) {
  const std::string model = model_name(archive);
  const std::string file = "models/" + model + ".json";
  ExportedArchive out{archive.path(), read_program(entry_text(archive, file), archive.path()), {}};
  read_stored(archive, "weights", model, weights, out.state);
  read_stored(archive, "constants", model, weights, out.state);
  check_state(archive, out);
  out.notes = read_notes(archive, out.program);
  if (out.notes) lend_subgraph_stacks(*out.notes, out.program);
  return out;
}

}  // namespace

ExportedArchive read_exported(const Archive& archive, Weights weights) {
  // The tensor files are checked as they are read, or not read at all; everything else now.
  archive.verify_crc(is_tensor_file);
  try {
    return read_checked(archive, weights);
  } catch (const json::exception& e) {
    throw damaged(archive, std::string("has malformed JSON: ") + first_line(e.what()));
  }
}

ExportedArchive read_exported(const std::string& path) {
  return read_exported(Archive::open(path), Weights::read);
}

}  // namespace modrec::pt2
