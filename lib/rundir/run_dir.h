// A recording directory read back (torch-free): stats.json, and manifest.json with its tensor files
// when the manifest is there. Format: docs/run-dir.md.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/call_memory.h"
#include "model/captures.h"
#include "model/layer_match.h"
#include "stats/running_stats.h"

namespace modrec {

struct RunTensor {
  int index = 0;     // position among the capture's tensors (depth-first)
  std::string name;  // a parameter's name (param, param_grad); empty otherwise
  std::vector<int64_t> shape;
  // torch's name, as stats.json holds it: text, since a run records tensors of any dtype torch
  // has (qint8, float8_e4m3fnuz), not only files/dtypes.h's, and rundir/ stays torch-free.
  std::string dtype;
  RunningStats stats;
  // Its place in the capture's value, indices and dict keys joined by '.' ("1.0": [1][0]); empty
  // for a lone tensor, a parameter, or a run recorded before modrec wrote places.
  std::string at;
};

struct RunCapture {
  std::string name;  // input, output, grad_input, grad_output
  std::vector<RunTensor> tensors;
  std::vector<std::string> files;  // saved tensors, full paths; empty with --save none
  // Gradients not recorded: unknown (through operators without a derivative, or untold).
  std::vector<NoGradient> no_gradient;

  // How tables and JSON name a tensor of the capture: "output[1][0]", "param.weight", "output"
  // for a lone tensor; a run without places numbers several tensors: "output[2]".
  std::string element(const RunTensor& t) const;
  std::string element(const NoGradient& g) const;
};

struct RunLayer {
  LayerRef ref;
  int call = 1;
  // Position in the order the calls returned (innermost first); -1 in runs recorded before
  // modrec wrote it.
  int returned = -1;
  std::vector<RunCapture> captures;
  std::optional<CallMemory> memory;  // recorded with --columns saved_bytes,peak_bytes

  const RunCapture* capture(const std::string& name) const;
};

struct RunDir {
  std::string path;
  std::vector<RunLayer> layers;
  nlohmann::json manifest;  // as read; null when the directory has none

  const RunLayer* layer(const std::string& label) const;
  std::vector<LayerRef> refs() const;
};

// A JSON file of a run directory; Error(bad_input) naming it when it is not a regular file,
// cannot be read or is not JSON.
nlohmann::json read_run_json(const std::string& file);
// A place ("1.0", "cls") as Python indexes it: "[1][0]", "['cls']"; "" for "".
std::string index_path(const std::string& at);
// How tables, stats.csv and TensorBoard tags name tensor `index` of `count` in a capture:
// "param.weight" for a parameter (`name`), "output[1][0]" by its place `at`, "output" for a lone
// tensor, "output[2]" when a run without places holds several.
std::string tensor_element(const std::string& capture, const std::string& name,
                           const std::string& at, size_t index, size_t count);
// A capture's "no_gradient" list of manifest.json and stats.json, and back.
nlohmann::json no_gradient_json(const std::vector<NoGradient>& refused);
std::vector<NoGradient> read_no_gradient(const nlohmann::json& j);

// One tensor's object of stats.json, or a row of watch's steps.jsonl: "tensor", "name", "shape",
// "dtype" and the statistics; throws nlohmann::json's exceptions or Error(bad_input).
RunTensor read_run_tensor(const nlohmann::json& j);

// Throws Error(bad_input, ..., <file>) when the directory, stats.json or manifest.json (when
// present) is missing, unreadable or not in the format.
RunDir read_run_dir(const std::string& path);

}  // namespace modrec
