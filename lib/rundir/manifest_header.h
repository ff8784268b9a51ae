// The fields every manifest.json starts with, record's, check MODEL's and watch's alike
// (docs/run-dir.md): which modrec and LibTorch wrote it, and the model file with its SHA-256 —
// what merge and diff compare before they put two runs side by side (torch-free: the caller
// names the versions).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

namespace modrec {

struct RunOrigin {
  std::string modrec_version;
  std::string libtorch_version;
  std::string model_path;
};

// {"modrec_version", "libtorch_version", "model": {"path", "sha256"}}; reads the model file.
nlohmann::json manifest_header(const RunOrigin& origin);

}  // namespace modrec
