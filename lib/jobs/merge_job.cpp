#include "jobs/merge_job.h"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "merge/merged_manifest.h"
#include "merge/merged_stats.h"
#include "merge/run_identity.h"
#include "merge/shard_tiling.h"
#include "merge/tensor_files.h"
#include "record/stats_files.h"
#include "util/atomic_dir.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/stopwatch.h"

namespace modrec {
namespace {

std::vector<ShardRun> read_shards(const std::vector<std::string>& dirs) {
  std::vector<ShardRun> runs;
  for (const auto& dir : dirs) runs.push_back(read_shard_run(dir));
  for (size_t i = 1; i < runs.size(); ++i) check_same_recording(runs[0], runs[i]);
  return in_shard_order(std::move(runs));
}

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
  const RecordedLayer& layer = shards[0]->run.layers[l];
  const RecordedCapture& capture = layer.captures[c];
  CaptureFiles files{"layer " + layer.ref.label + ", " + capture.name,
                     combine_rule(capture.name, shards[0]->reduce), {}, {}, {}};
  for (const ShardRun* s : shards) {
    const RecordedCapture& part = s->run.layers[l].captures[c];
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

// Writes the merged tensor files; param_grad's statistics become those of the summed gradient.
void merge_tensors(const std::vector<const ShardRun*>& shards, std::vector<RecordedLayer>& layers,
                   const std::string& out_dir) {
  for (size_t l = 0; l < layers.size(); ++l)
    for (size_t c = 0; c < layers[l].captures.size(); ++c) {
      RecordedCapture& capture = layers[l].captures[c];
      if (shards[0]->run.layers[l].captures[c].files.empty()) continue;
      throw_if_interrupted();
      const bool recompute = stats_rule(capture.name) == StatsRule::from_tensors;
      const auto stats = merge_tensor_files(capture_files(shards, l, c, out_dir), recompute);
      for (size_t t = 0; t < stats.size() && t < capture.tensors.size(); ++t)
        capture.tensors[t].stats = stats[t];
    }
}

}  // namespace

void run_merge_job(const MergeJob& job) {
  if (job.runs.empty())
    throw Error(Exit::usage, "merge needs the shard runs", "RUN", "give every shard's directory");
  AtomicDir dir(job.out, job.force);  // refuses an existing --out before any work
  InterruptGuard interrupts;
  Stopwatch clock;
  const std::vector<ShardRun> runs = read_shards(job.runs);
  std::vector<const ShardRun*> recorded;
  for (const auto& r : runs)
    if (r.recorded()) recorded.push_back(&r);
  std::vector<RecordedLayer> layers = merge_stats(recorded);
  spdlog::debug("timing: read and merge statistics {:.6f} s", clock.lap());
  if (!recorded.empty()) merge_tensors(recorded, layers, dir.path());
  spdlog::debug("timing: tensors {:.6f} s", clock.lap());
  write_file_atomic(dir.path() + "/stats.json", stats_json(layers).dump(1) + "\n");
  write_file_atomic(dir.path() + "/stats.csv", stats_csv(layers));
  write_file_atomic(dir.path() + "/manifest.json", merged_manifest(runs).dump(2) + "\n");
  dir.commit();
}

}  // namespace modrec
