// --shard K/N: which contiguous part of the input samples one process of a sharded job takes, so
// that N processes (a Slurm job array, a Kubernetes Indexed Job, xargs -P) cover the data once
// and `modrec merge` can put their runs together (torch-free).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace modrec {

// K counts from 0, as Kubernetes' JOB_COMPLETION_INDEX and `sbatch --array=0-(N-1)` do.
struct Shard {
  int64_t index = 0;
  int64_t count = 1;
};

// "K/N" with 0 <= K < N; anything else is a usage Error naming --shard.
Shard parse_shard(const std::string& text);

// Samples [start, end) along dim 0.
struct SampleRange {
  int64_t start = 0;
  int64_t end = 0;
  int64_t size() const { return end - start; }
};

// The shard's part of `samples`: [K*S/N, (K+1)*S/N), rounded down, so parts differ by at most
// one sample and tile [0, S) in order. Without a shard, all of them. A shard left empty (fewer
// samples than shards) is a usage Error: its process would record nothing.
SampleRange shard_range(const std::optional<Shard>& shard, int64_t samples);

}  // namespace modrec
