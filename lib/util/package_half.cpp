#include "util/package_half.h"

#include <filesystem>

namespace modrec {

std::optional<PackageHalf> package_half(const std::string& path) {
  const size_t colon = path.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  PackageHalf out{path.substr(0, colon), path.substr(colon + 1)};
  std::error_code ec;
  if ((out.half != "compiled" && out.half != "program") || std::filesystem::exists(path, ec))
    return std::nullopt;
  return out;
}

std::string model_file(const std::string& path) {
  const std::optional<PackageHalf> half = package_half(path);
  return half ? half->file : path;
}

}  // namespace modrec
