#include "util/csv_path.h"

namespace modrec {

std::string csv_path(const std::string& path) { return path.empty() ? kRootPathCell : path; }

}  // namespace modrec
