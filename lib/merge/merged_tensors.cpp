#include "merge/merged_tensors.h"

#include <filesystem>

#include "merge/tensor_files.h"
#include "util/atomic_file.h"
#include "util/interrupt.h"
#include "util/progress.h"

namespace modrec {
namespace {

// A capture's files as the manifest names them, relative to the run directory.
std::vector<std::string> relative_files(const ShardRun& run, const std::string& label,
                                        const std::string& capture) {
  for (const auto& layer : run.run.manifest.at("layers"))
    if (layer.at("label") == label)
      return layer.at("captures").at(capture).at("files").get<std::vector<std::string>>();
  return {};
}

CaptureFiles capture_files(const std::vector<const ShardRun*>& shards, size_t l, size_t c,
                           const std::string& out_dir) {
  const RunLayer& layer = shards[0]->run.layers[l];
  const RunCapture& capture = layer.captures[c];
  CaptureFiles files{"layer " + layer.ref.label + ", " + capture.name,
                     combine_rule(capture.name, shards[0]->reduce),
                     {},
                     {},
                     {}};
  for (const ShardRun* s : shards) {
    const RunCapture& part = s->run.layers[l].captures[c];
    files.shard_files.push_back(part.files);
    const auto& shape = part.tensors.at(0).shape;
    files.samples.push_back(shape.empty() ? 0 : shape[0]);
  }
  for (const auto& f : relative_files(*shards[0], layer.ref.label, capture.name)) {
    files.out.push_back(out_dir + "/" + f);
    make_directories(std::filesystem::path(files.out.back()).parent_path().string());
  }
  return files;
}

}  // namespace

void merge_tensors(const std::vector<const ShardRun*>& shards, std::vector<RunLayer>& layers,
                   const std::string& out_dir) {
  const int total = static_cast<int>(layers.size());
  progress::Phase merging("merge: tensors of layer calls", total);
  for (size_t l = 0; l < layers.size(); ++l) {
    merging.step(static_cast<int>(l), total);
    for (size_t c = 0; c < layers[l].captures.size(); ++c) {
      RunCapture& capture = layers[l].captures[c];
      if (shards[0]->run.layers[l].captures[c].files.empty()) continue;
      throw_if_interrupted();
      const bool recompute = stats_rule(capture.name) == StatsRule::from_tensors;
      const auto stats = merge_tensor_files(capture_files(shards, l, c, out_dir), recompute);
      for (size_t t = 0; t < stats.size() && t < capture.tensors.size(); ++t)
        capture.tensors[t].stats = stats[t];
    }
  }
}

}  // namespace modrec
