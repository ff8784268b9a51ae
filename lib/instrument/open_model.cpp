#include "instrument/open_model.h"

#include "instrument/aoti/compiled_package.h"
#include "instrument/executorch/executorch_program.h"
#include "instrument/pt2/exported_model.h"
#include "instrument/script_model.h"
#include "load/load_model.h"
#include "load/pt2/exported_archive.h"
#include "util/error.h"

namespace modrec {

std::unique_ptr<InstrumentedModel> open_model(const std::string& path, const FileInfo& file,
                                              Weights weights, const FormatOptions& formats,
                                              const InstrumentOptions& options) {
  std::unique_ptr<InstrumentedModel> model;
  if (file.kind == FileKind::exported)
    model = std::make_unique<ExportedModel>(pt2::read_exported(*file.archive, weights), options);
  else if (file.kind == FileKind::aoti_package)
    model = open_compiled_package(path, file);
  else if (file.kind == FileKind::executorch)
    model = open_executorch_program(path, formats.etrecord);
  else
    return std::make_unique<ScriptModel>(load_model(path, file, weights), options);
  if (options.savable)
    throw Error(Exit::usage,
                "--save-model saves TorchScript models only, not .pt2 or .pte files yet", path,
                "leave --save-model out");
  return model;
}

}  // namespace modrec
