// The merged recording's tensor files from the shards' (torch-free header; tensor_files.cpp is
// the only file of lib/merge that uses LibTorch). Each file of a capture is combined across the
// shards by its Combine rule (combine_rule.h):
// - concatenate, .npy: streamed: the header of the whole array, then each shard's rows appended
//   in shard order, a few MiB at a time from the memory-mapped shard file, never all in memory;
// - concatenate, .pt: torch.save files cannot be appended to, so each shard's file is loaded
//   whole, one after another, and the concatenation is written at the end (the capture's whole
//   size in memory, twice while it is concatenated);
// - sum, mean (small: no sample dimension): summed in float64 (the mean weighted by each shard's
//   samples) and written in the shards' dtype; a float32 sum thus rounds once more than the
//   unsharded run's, which rounds once at its end;
// - first: the first shard's file copied; so is every file when only one shard recorded.
// A .pt keeps the first shard's structure: its tuples, and values that are no tensors (a call's
// flags, None) stay where they were.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "merge/combine_rule.h"
#include "stats/running_stats.h"

namespace modrec {

struct CaptureFiles {
  std::string where;  // "layer 2-1, output", for errors
  Combine combine = Combine::concatenate;
  // Per shard, in shard order: the capture's files (full paths), as many and named alike in each.
  std::vector<std::vector<std::string>> shard_files;
  std::vector<int64_t> samples;  // per shard: the weight of its mean
  std::vector<std::string> out;  // where each merged file goes (its folder must exist)
};

// Writes `c.out`. With `statistics`, returns the statistics of the written tensors, file after
// file (a .pt's tensors in order), computed as record computes them; else nothing.
// Throws Error(bad_input) naming `c.where` when the shards' tensors do not fit together (0-dim
// or other shapes to concatenate, other dtypes, counts), read_inputs' errors for an unreadable
// shard file, Error(write_failed) for a file that cannot be written.
std::vector<RunningStats> merge_tensor_files(const CaptureFiles& c, bool statistics);

}  // namespace modrec
