// A recording directory read back (torch-free): stats.json, and manifest.json with its tensor files
// when the manifest is there. Format: docs/run-dir.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/layer_match.h"
#include "stats/running_stats.h"

namespace modrec {

struct RecordedTensor {
  int index = 0;  // position in a tuple-valued capture
  std::string name;  // a parameter's name (param, param_grad); empty otherwise
  std::vector<int64_t> shape;
  std::string dtype;
  RunningStats stats;
};

struct RecordedCapture {
  std::string name;                     // input, output, grad_input, grad_output
  std::vector<RecordedTensor> tensors;
  std::vector<std::string> files;       // saved tensors, full paths; empty with --save none
};

struct RecordedLayer {
  LayerRef ref;
  int call = 1;
  // Position in the order the calls returned (innermost first); -1 in runs recorded before
  // modrec wrote it.
  int returned = -1;
  std::vector<RecordedCapture> captures;

  const RecordedCapture* capture(const std::string& name) const;
};

struct RunDir {
  std::string path;
  std::vector<RecordedLayer> layers;
  nlohmann::json manifest;  // as read; null when the directory has none

  const RecordedLayer* layer(const std::string& label) const;
  std::vector<LayerRef> refs() const;
};

// Throws Error(bad_input, ..., <file>) when the directory, stats.json or manifest.json (when
// present) is missing, unreadable or not in the format.
RunDir read_run_dir(const std::string& path);

// Which part of a run check or diff looks at.
struct RunScope {
  std::string layers = "all";         // selectors, see layer_match.h
  std::vector<std::string> captures;  // empty: every capture

  // Indices of the selected layers; throws Error(usage) on a bad selector or capture name.
  std::vector<size_t> select(const std::vector<LayerRef>& layers) const;
  bool wants(const std::string& capture) const;
};

}  // namespace modrec
