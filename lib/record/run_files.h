// The files of a recording directory besides the tensors (format: docs/run-dir.md).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "record/layer_recording.h"

namespace modrec {

// Completes tensors/<label>/<capture>.* for every capture (CaptureSink::write) and fills in
// CaptureRecording::files.
void write_tensor_files(std::vector<LayerRecording>& layers);

nlohmann::json stats_json(const std::vector<LayerRecording>& layers);
std::string stats_csv(const std::vector<LayerRecording>& layers);
// The "layers" array of manifest.json.
nlohmann::json manifest_layers(const std::vector<LayerRecording>& layers);

}  // namespace modrec
