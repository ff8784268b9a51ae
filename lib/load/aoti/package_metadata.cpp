#include "load/aoti/package_metadata.h"

#include <stdexcept>

#include "util/json_text.h"

namespace modrec::aoti {

PackageMetadata parse_package_metadata(std::string_view text) {
  nlohmann::json json;
  try {
    json = read_json(text, JsonLimits{.max_bytes = 1 << 20, .max_depth = 4});
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("is not JSON: ") + e.what());
  }
  if (!json.is_object()) throw std::invalid_argument("is not a JSON object");
  PackageMetadata out;
  for (const auto& [key, value] : json.items()) {
    if (!value.is_string()) throw std::invalid_argument("holds " + key + ", not a string");
    out.values[key] = value.get<std::string>();
  }
  const auto device = out.values.find("AOTI_DEVICE_KEY");
  if (device == out.values.end()) throw std::invalid_argument("names no AOTI_DEVICE_KEY");
  out.device = device->second;
  return out;
}

}  // namespace modrec::aoti
