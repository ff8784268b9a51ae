// manifest.json (docs/run-dir.md): what a run directory holds and how it was made. Record and
// check MODEL, merge and watch write it through write_run_manifest, the one writer; merge, diff
// and report read it through read_run_manifest. It states its kind, so that no reader guesses
// a run's kind from the files beside it (torch-free: the caller names the versions).
#pragma once
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "util/enum_names.h"

namespace modrec {

// A recording (stats.json, tensors/: record, check MODEL, merge) or a watch run (steps.jsonl).
enum class RunKind { recording, watch };
const EnumNames<RunKind>& run_kind_names();

// Which modrec and LibTorch made a run, from which model file.
struct RunOrigin {
  std::string modrec_version;
  std::string libtorch_version;
  std::string model_path;
};

struct RunManifest {
  RunKind kind = RunKind::recording;
  nlohmann::json fields = nlohmann::json::object();  // every field but "kind", as the kind has them
};

// A manifest of `kind` holding the fields every manifest starts with: "modrec_version",
// "libtorch_version" and "model": {"path", "sha256"}, what merge and diff compare before they put
// two runs side by side. Reads the model file.
RunManifest new_run_manifest(RunKind kind, const RunOrigin& origin);

// DIR/manifest.json, complete or not at all; returns the text written. Error(write_failed).
std::string write_run_manifest(const std::string& dir, const RunManifest& manifest);

// DIR/manifest.json; nullopt when the directory has none. A manifest without "kind" (modrec 0.1)
// is a watch run's when its "command" says so, else a recording's. Error(bad_input) naming the
// file when it is unreadable, no JSON object, or of an unknown kind.
std::optional<RunManifest> read_run_manifest(const std::string& dir);

}  // namespace modrec
