#include "instrument/open_model.h"

#include "instrument/pt2/exported_model.h"
#include "instrument/script_model.h"
#include "load/file_kind.h"
#include "load/load_model.h"
#include "load/pt2/exported_archive.h"

namespace modrec {

std::unique_ptr<InstrumentedModel> open_model(const std::string& path,
                                              const InstrumentOptions& options) {
  if (classify(path) == FileKind::exported)
    return std::make_unique<ExportedModel>(pt2::read_exported(path), options);
  return std::make_unique<ScriptModel>(load_model(path), options);
}

}  // namespace modrec
