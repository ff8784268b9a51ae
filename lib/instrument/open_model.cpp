#include "instrument/open_model.h"

#include "instrument/pt2/exported_model.h"
#include "instrument/script_model.h"
#include "load/load_model.h"
#include "load/pt2/exported_archive.h"
#include "util/error.h"

namespace modrec {

std::unique_ptr<InstrumentedModel> open_model(const std::string& path, const FileInfo& file,
                                              Weights weights, const InstrumentOptions& options) {
  if (file.kind == FileKind::exported) {
    pt2::ExportedArchive archive = pt2::read_exported(*file.archive, weights);
    if (options.savable)
      throw Error(Exit::usage, "--save-model saves TorchScript models only, not .pt2 programs yet",
                  path, "leave --save-model out");
    return std::make_unique<ExportedModel>(std::move(archive), options);
  }
  return std::make_unique<ScriptModel>(load_model(path, file, weights), options);
}

}  // namespace modrec
