// An AOTInductor package's metadata (<hash>.wrapper_metadata.json beside its library), typed.
// LibTorch's loader requires every value to be a string and picks the runner of the device that
// AOTI_DEVICE_KEY names; modrec runs packages compiled for the CPU.
#pragma once
#include <map>
#include <string>
#include <string_view>

namespace modrec::aoti {

struct PackageMetadata {
  std::map<std::string, std::string> values;  // e.g. AOTI_DEVICE_KEY: "cpu", AOTI_CPU_ISA: "AVX2"
  std::string device;                         // AOTI_DEVICE_KEY's
};

// Reads `text` through util/json_text.h. Throws std::invalid_argument saying what is wrong: not
// JSON (or beyond its limits), not an object, a value not a string, no AOTI_DEVICE_KEY.
PackageMetadata parse_package_metadata(std::string_view text);

}  // namespace modrec::aoti
