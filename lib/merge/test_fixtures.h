// Test helper (header-only, torch-free): shard runs as `record --shard` writes them, built in
// memory: the manifest fields merge reads, and layers whose statistics are those of given values.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "merge/shard_run.h"

namespace modrec::test {

using nlohmann::json;

// What record writes for part `index` of `count` over `total` samples (--save npy).
inline json shard_manifest(int64_t index, int64_t count, int64_t total, int64_t batch_size = 0) {
  const int64_t start = index * total / count, end = (index + 1) * total / count;
  return {{"modrec_version", "0.2.0"},
          {"libtorch_version", "2.14.1"},
          {"model", {{"path", "m.pt"}, {"sha256", "5ca1ab1e"}}},
          {"inputs", {{"files", {"x.npy"}}, {"sizes", json::array()}, {"seed", 0}}},
          {"options",
           {{"layers", "all"},
            {"save", "npy"},
            {"reduce", nullptr},
            {"batch_size", batch_size > 0 ? json(batch_size) : json()}}},
          {"batches", 1},
          {"kept_batches", {1}},
          {"first_nonfinite", nullptr},
          {"shard", {{"index", index}, {"count", count}, {"start", start}, {"end", end}}},
          {"samples", end - start},
          {"total_samples", total},
          {"layers", json::array()}};
}

// A tensor's statistics, as record keeps them, of `values` in `shape`.
inline RunTensor tensor_of(const std::vector<double>& values, std::vector<int64_t> shape,
                           std::string name = "") {
  RunTensor t;
  t.name = std::move(name);
  t.shape = std::move(shape);
  t.dtype = "float64";
  t.stats.add(values.data(), values.size());
  return t;
}

inline RunLayer layer_of(std::string label, std::vector<RunCapture> captures) {
  return {{label, "features." + label, "Linear"}, 1, 0, std::move(captures)};
}

// The manifest's "layers" entry of `layer`: its captures' shapes and dtypes.
inline json manifest_layer(const RunLayer& layer) {
  json captures = json::object();
  for (const auto& c : layer.captures) {
    json shapes = json::array(), dtypes = json::array();
    for (const auto& t : c.tensors) {
      shapes.push_back(t.shape);
      dtypes.push_back(t.dtype);
    }
    captures[c.name] = {{"files", c.files}, {"shapes", shapes}, {"dtypes", dtypes}};
  }
  return {{"label", layer.ref.label}, {"path", layer.ref.path},     {"type", layer.ref.type},
          {"call", layer.call},       {"returned", layer.returned}, {"captures", captures}};
}

// The run in directory "s<index>" (or `dir`), its manifest listing `layers`.
inline ShardRun shard_run(json manifest, std::vector<RunLayer> layers = {}, std::string dir = "") {
  if (dir.empty()) dir = "s" + std::to_string(manifest.at("shard").at("index").get<int64_t>());
  for (const auto& layer : layers) manifest["layers"].push_back(manifest_layer(layer));
  return shard_run_of(RunDir{dir, std::move(layers), std::move(manifest)});
}

}  // namespace modrec::test
