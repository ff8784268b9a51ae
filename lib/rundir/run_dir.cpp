#include "rundir/run_dir.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "model/captures.h"
#include "rundir/run_manifest.h"
#include "rundir/run_paths.h"
#include "util/error.h"
#include "util/regular_file.h"
#include "util/json_text.h"

namespace modrec {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

const char* const kRecordHint = "record one with: modrec record MODEL --layers … --out DIR";

// Captures in the contract's order (JSON objects come back sorted by name).
size_t capture_rank(const std::string& name) {
  const auto& names = capture_names();
  return std::find_if(names.begin(), names.end(),
                      [&](const auto& entry) { return entry.first == name; }) -
         names.begin();
}

RunLayer read_layer(const json& j) {
  RunLayer layer;
  layer.ref = {j.at("label").get<std::string>(), j.at("path").get<std::string>(),
               j.at("type").get<std::string>()};
  layer.call = j.value("call", 1);
  layer.returned = j.value("returned", -1);
  if (j.contains("memory")) layer.memory = call_memory_from_json(j.at("memory"), "stats.json");
  const json refused = j.value("no_gradient", json::object());
  for (const auto& [name, tensors] : j.at("captures").items()) {
    RunCapture capture{name, {}, {}, read_no_gradient(refused.value(name, json::array()))};
    for (const json& t : tensors) capture.tensors.push_back(read_run_tensor(t));
    layer.captures.push_back(std::move(capture));
  }
  std::stable_sort(layer.captures.begin(), layer.captures.end(),
                   [](const RunCapture& x, const RunCapture& y) {
                     return capture_rank(x.name) < capture_rank(y.name);
                   });
  return layer;
}

// Errors from the stats parser name only "stats.json"; say which file and layer.
std::vector<RunLayer> read_layers(const json& stats, const fs::path& file) {
  std::vector<RunLayer> layers;
  std::string where = file.string();
  try {
    for (const json& l : stats.at("layers")) {
      where = file.string() + ", layer " + l.value("label", "?");
      layers.push_back(read_layer(l));
    }
  } catch (const json::exception& e) {
    throw Error(Exit::bad_input,
                "stats.json is not in the recording format: " + first_line(e.what()), where,
                kRecordHint);
  } catch (const Error& e) {
    throw Error(e.code(), e.what(), where, e.hint());
  }
  return layers;
}

void attach_files(RunDir& run, const json& manifest, const fs::path& file) {
  try {
    for (const json& l : manifest.at("layers")) {
      const auto label = l.at("label").get<std::string>();
      auto layer = std::find_if(run.layers.begin(), run.layers.end(),
                                [&](const RunLayer& r) { return r.ref.label == label; });
      if (layer == run.layers.end()) continue;
      for (auto& capture : layer->captures) {
        const json& files =
            l.at("captures").value(capture.name, json::object()).value("files", json::array());
        for (const json& f : files)
          capture.files.push_back((fs::path(run.path) / f.get<std::string>()).string());
      }
    }
  } catch (const json::exception& e) {
    throw Error(Exit::bad_input,
                "manifest.json is not in the recording format: " + first_line(e.what()),
                file.string(), kRecordHint);
  }
}

}  // namespace

json read_run_json(const std::string& path) {
  const fs::path file(path);
  require_regular_file(file.string(), "recording file");
  std::ifstream in(file);
  if (!in)
    throw Error(Exit::bad_input, "cannot read " + file.filename().string(), file.string(),
                kRecordHint);
  try {
    return read_json(std::string(std::istreambuf_iterator<char>(in), {}));
  } catch (const json::exception& e) {
    throw Error(Exit::bad_input,
                file.filename().string() + " is not valid JSON: " + first_line(e.what()),
                file.string(), kRecordHint);
  }
}

RunTensor read_run_tensor(const json& j) {
  RunTensor t;
  t.index = j.at("tensor").get<int>();
  t.name = j.value("name", "");
  t.shape = j.at("shape").get<std::vector<int64_t>>();
  t.dtype = j.at("dtype").get<std::string>();
  t.stats = RunningStats::from_json(j);
  t.at = j.value("at", "");
  return t;
}

std::string index_path(const std::string& at) {
  std::string out;
  size_t start = 0;
  while (start < at.size()) {
    size_t end = at.find('.', start);
    if (end == std::string::npos) end = at.size();
    const std::string key = at.substr(start, end - start);
    const bool index = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
    out += index ? "[" + key + "]" : "['" + key + "']";
    start = end + 1;
  }
  return out;
}

// "reason" only where there is one: runs refused for operators alone read as before.
json no_gradient_json(const std::vector<NoGradient>& refused) {
  json out = json::array();
  for (const NoGradient& g : refused) {
    out.push_back({{"at", g.at}, {"through", g.through}});
    if (!g.reason.empty()) out.back()["reason"] = g.reason;
  }
  return out;
}

std::vector<NoGradient> read_no_gradient(const json& j) {
  std::vector<NoGradient> out;
  for (const json& g : j)
    out.push_back({g.at("at").get<std::string>(), g.at("through").get<std::vector<std::string>>(),
                   g.value("reason", "")});
  return out;
}

std::string tensor_element(const std::string& capture, const std::string& name,
                           const std::string& at, size_t index, size_t count) {
  if (!name.empty()) return capture + "." + name;
  if (!at.empty()) return capture + index_path(at);
  return count > 1 ? capture + "[" + std::to_string(index) + "]" : capture;
}

std::string RunCapture::element(const RunTensor& t) const {
  return tensor_element(name, t.name, t.at, static_cast<size_t>(t.index), tensors.size());
}

// A parameter's refused gradient is placed by its name ("param_grad.weight").
std::string RunCapture::element(const NoGradient& g) const {
  return name == "param_grad" ? name + "." + g.at : name + index_path(g.at);
}

const RunCapture* RunLayer::capture(const std::string& name) const {
  for (const auto& c : captures)
    if (c.name == name) return &c;
  return nullptr;
}

const RunLayer* RunDir::layer(const std::string& label) const {
  for (const auto& l : layers)
    if (l.ref.label == label) return &l;
  return nullptr;
}

std::vector<LayerRef> RunDir::refs() const {
  std::vector<LayerRef> refs;
  for (const auto& l : layers) refs.push_back(l.ref);
  return refs;
}

RunDir read_run_dir(const std::string& path) {
  if (!fs::is_directory(path))
    throw Error(Exit::bad_input, "no recording directory", path, kRecordHint);
  std::optional<RunManifest> manifest = read_run_manifest(path);
  if (manifest && manifest->kind == RunKind::watch)
    throw Error(Exit::bad_input, "a watch run, not a recording: its statistics are per step", path,
                kRecordHint);
  RunDir run{path, {}, nullptr};
  const fs::path stats = run_paths::stats_json(path);
  run.layers = read_layers(read_run_json(stats.string()), stats);
  if (!manifest) return run;
  run.manifest = std::move(manifest->fields);
  attach_files(run, run.manifest, run_paths::manifest(path));
  return run;
}

}  // namespace modrec
