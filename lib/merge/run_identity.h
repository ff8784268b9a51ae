// What two shard runs must share to be parts of one recording (torch-free): the same model bytes
// (sha256; its path may differ between machines), the same options, the same inputs (every
// field of "inputs": the files, sizes, seed and each source's identity, which names every file
// by size, mtime and a hash of its head), the same shard count, and the same modrec and LibTorch
// versions (their kernels decide the last bits). Being recorded with --shard is part of it: a
// run without it is a whole, which merges only alone.
#pragma once
#include "merge/shard_run.h"

namespace modrec {

// Throws Error(bad_input) naming both runs and the first field that differs, with both values:
// "cannot merge: options differ at /batch_size: 2 vs 4 (s0 and s1): …".
void check_same_recording(const ShardRun& a, const ShardRun& b);

}  // namespace modrec
