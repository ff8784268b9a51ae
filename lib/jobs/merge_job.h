// `modrec merge`: shard runs of one recording (record --shard K/N) put together into the run
// directory one unsharded record would have written (lib/merge says how each part is merged).
#pragma once
#include <string>
#include <vector>

namespace modrec {

struct MergeJob {
  std::vector<std::string> runs;  // the shard run directories, in any order
  std::string out;
  bool force = false;  // replace an existing `out` once the merged run is complete
};

// Throws Error(bad_input) when the runs are no complete set of shards of one recording,
// Error(write_failed) when `out` exists (without force) or cannot be written.
void run_merge_job(const MergeJob& job);

}  // namespace modrec
