// The statistics files of a recording directory, and its tensor files completed (format:
// docs/run-dir.md; manifest.json: record/output/manifest.h).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "record/accumulate/layer_recording.h"

namespace modrec {

// Completes tensors/<label>/<capture>.* for every capture (CaptureSink::write) and fills in
// CaptureRecording::files.
void write_tensor_files(std::vector<LayerRecording>& layers);

nlohmann::json stats_json(const std::vector<LayerRecording>& layers);
std::string stats_csv(const std::vector<LayerRecording>& layers);

}  // namespace modrec
