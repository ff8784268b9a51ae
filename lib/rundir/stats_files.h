// stats.json and stats.csv of a recording directory (format: docs/run-dir.md), written from the
// statistics in the form rundir/run_dir.h reads them back (torch-free): record writes its layers
// through these (run_files.h), merge the statistics it merged from shard runs.
#pragma once
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rundir/run_dir.h"

namespace modrec {

// Per layer and capture, each tensor's RunningStats::to_json() with "tensor", "shape", "dtype"
// and, for a parameter, "name".
nlohmann::json stats_json(const std::vector<RunLayer>& layers);
// One row per (layer, capture, tensor), in the layers' and captures' order; with the layers'
// measured memory (RunLayer::memory), the row's layer's saved_bytes, peak_forward_bytes and
// peak_backward_bytes after the statistics.
std::string stats_csv(const std::vector<RunLayer>& layers);

}  // namespace modrec
