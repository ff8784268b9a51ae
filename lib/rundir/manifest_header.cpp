#include "rundir/manifest_header.h"

#include "util/sha256.h"

namespace modrec {

nlohmann::json manifest_header(const RunOrigin& origin) {
  return {{"modrec_version", origin.modrec_version},
          {"libtorch_version", origin.libtorch_version},
          {"model", {{"path", origin.model_path}, {"sha256", sha256_file(origin.model_path)}}}};
}

}  // namespace modrec
