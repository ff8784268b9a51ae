// One run of `modrec record --shard K/N` read back for merging (torch-free): its manifest's facts
// parsed once into types, and its statistics with the tensor files they were saved to.
// Format: docs/run-dir.md.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rundir/run_dir.h"
#include "rundir/saved_tensors.h"

namespace modrec {

// The manifest's "shard": part `index` of `count`, samples [start, end) of the whole input.
struct ShardPart {
  int64_t index = 0;
  int64_t count = 1;
  int64_t start = 0;
  int64_t end = 0;
};

struct ShardRun {
  RunDir run;            // path, stats.json's layers (with their files), manifest.json
  bool sharded = false;  // recorded with --shard; a run without is the whole, part 0 of 1
  ShardPart part;
  int64_t total_samples = 0;  // of the whole input
  SaveFormat save = SaveFormat::pt;
  Reduce reduce = Reduce::none;
  int64_t batch_size = 0;             // 0: the shard ran as one batch
  std::vector<int64_t> kept_batches;  // numbered from 1 within the shard

  const std::string& dir() const { return run.path; }
  int64_t samples() const { return part.end - part.start; }
  // The batches the shard's samples were split into (kept or not): batch numbers of the next
  // shard follow them.
  int64_t batches_formed() const;
  // False when --when kept none of its batches: it then has no layers and adds nothing.
  bool recorded() const { return !kept_batches.empty(); }
};

// read_run_dir(dir), with its manifest's facts parsed (shard_run_of). Throws Error(bad_input,
// ..., dir) when the directory is no complete recording: no manifest.json or stats.json,
// unreadable or invalid JSON.
ShardRun read_shard_run(const std::string& dir);
// Throws Error(bad_input) naming the manifest when it lacks the fields above or its "samples"
// are not its shard's.
ShardRun shard_run_of(RunDir run);

}  // namespace modrec
