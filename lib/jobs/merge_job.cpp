#include "jobs/merge_job.h"

#include "merge/merged_manifest.h"
#include "merge/merged_stats.h"
#include "merge/merged_tensors.h"
#include "merge/run_identity.h"
#include "merge/shard_tiling.h"
#include "rundir/run_paths.h"
#include "rundir/stats_files.h"
#include "util/atomic_dir.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/log.h"
#include "util/path_overlap.h"
#include "util/progress.h"
#include "util/stopwatch.h"

namespace modrec {
namespace {

std::vector<ShardRun> read_shards(const std::vector<std::string>& dirs) {
  std::vector<ShardRun> runs;
  progress::Phase reading("merge: reading shards", static_cast<int>(dirs.size()));
  for (const auto& dir : dirs) {
    runs.push_back(read_shard_run(dir));
    reading.step(static_cast<int>(runs.size()), static_cast<int>(dirs.size()));
  }
  for (size_t i = 1; i < runs.size(); ++i) check_same_recording(runs[0], runs[i]);
  return in_shard_order(std::move(runs));
}

}  // namespace

void run_merge_job(const MergeJob& job) {
  if (job.runs.empty())
    throw Error(Exit::usage, "merge needs the shard runs", "RUN", "give every shard's directory");
  refuse_output_over_inputs({job.out, "--out"}, flag_paths(job.runs, "RUN"));
  AtomicDir dir(job.out, job.force);  // refuses an existing --out before any work
  InterruptGuard interrupts;
  Stopwatch clock;
  const std::vector<ShardRun> runs = read_shards(job.runs);
  std::vector<const ShardRun*> recorded;
  for (const auto& r : runs)
    if (r.recorded()) recorded.push_back(&r);
  std::vector<RunLayer> layers = merge_stats(recorded);
  log::debug("timing: read and merge statistics ", log::seconds(clock.lap()), " s");
  if (!recorded.empty()) merge_tensors(recorded, layers, dir.path());
  log::debug("timing: tensors ", log::seconds(clock.lap()), " s");
  write_file_atomic(run_paths::stats_json(dir.path()), stats_json(layers).dump(1) + "\n");
  write_file_atomic(run_paths::stats_csv(dir.path()), stats_csv(layers));
  write_run_manifest(dir.path(), merged_manifest(runs));
  dir.commit();
}

}  // namespace modrec
