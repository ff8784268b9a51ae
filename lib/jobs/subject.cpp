#include "jobs/subject.h"

#include <filesystem>

#include "rundir/run_paths.h"
#include "util/error.h"

namespace modrec {

namespace {

// A recording (record's, merge's) or a watch run, which read_run_dir refuses by name.
bool holds_run(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::exists(run_paths::stats_json(dir), ec) ||
         std::filesystem::exists(run_paths::manifest(dir), ec);
}

}  // namespace

Subject subject_of(const std::string& path) {
  FileInfo file = inspect_file(path);
  if (is_checkpoint(file.kind)) return {Subject::checkpoint, std::move(file)};
  if (is_model(file.kind)) return {Subject::model, std::move(file)};
  if (file.kind == FileKind::directory) {
    if (holds_run(path)) return {Subject::recording, std::move(file)};
    throw Error(Exit::bad_input,
                "folder holds neither a recording (stats.json, manifest.json) nor a "
                "save_pretrained checkpoint (" +
                    pretrained_weight_names() + ")",
                path,
                "give modrec record's --out directory, a checkpoint (a .safetensors file, its "
                "index, a torch.save'd state_dict, their folder) or a model file");
  }
  throw Error(Exit::bad_input, "file " + describe(file), path, model_hint(file.kind));
}

}  // namespace modrec
