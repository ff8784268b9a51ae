#include "rundir/run_manifest.h"

#include <filesystem>

#include "rundir/run_dir.h"
#include "rundir/run_paths.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/package_half.h"
#include "util/sha256.h"

namespace modrec {

const EnumNames<RunKind>& run_kind_names() {
  static const EnumNames<RunKind> names{{"recording", RunKind::recording},
                                        {"watch", RunKind::watch}};
  return names;
}

namespace {

// The kind a manifest states; modrec 0.1's stated none, and a watch run's said "command": "watch".
std::string stated_kind(const nlohmann::json& fields) {
  if (const auto kind = fields.find("kind"); kind != fields.end())
    return kind->is_string() ? kind->get<std::string>() : kind->dump();
  const auto command = fields.find("command");
  return command != fields.end() && *command == "watch" ? "watch" : "recording";
}

}  // namespace

RunManifest new_run_manifest(RunKind kind, const RunOrigin& origin) {
  return {
      kind,
      {{"modrec_version", origin.modrec_version},
       {"libtorch_version", origin.libtorch_version},
       {"model",
        {{"path", origin.model_path}, {"sha256", sha256_file(model_file(origin.model_path))}}}}};
}

std::string write_run_manifest(const std::string& dir, const RunManifest& manifest) {
  nlohmann::json out = manifest.fields;
  out["kind"] = name_of(run_kind_names(), manifest.kind);
  std::string text = out.dump(2) + "\n";
  write_file_atomic(run_paths::manifest(dir), text);
  return text;
}

std::optional<RunManifest> read_run_manifest(const std::string& dir) {
  const std::string file = run_paths::manifest(dir);
  if (!std::filesystem::exists(file)) return std::nullopt;
  nlohmann::json fields = read_run_json(file);
  if (!fields.is_object())
    throw Error(Exit::bad_input, "manifest is no JSON object", file,
                "give a directory written by modrec record, check MODEL --out, merge or watch");
  const std::string kind = stated_kind(fields);
  const RunKind* known = value_named(run_kind_names(), kind);
  if (!known)
    throw Error(Exit::bad_input, "manifest names an unknown kind of run: " + kind, file,
                "read it with the modrec that wrote it");
  fields.erase("kind");
  return RunManifest{*known, std::move(fields)};
}

}  // namespace modrec
