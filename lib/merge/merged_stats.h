// The statistics of the whole recording from its shards' (torch-free), per (layer, capture,
// tensor), in shard order:
// - per-sample captures (combine_rule.h) merge exactly: RunningStats::merge, Chan et al.'s
//   parallel update of the moments, and histogram counts added on their batch-independent bins;
//   dim 0 of the shape adds up;
// - param's are the first shard's (every shard has the same parameters);
// - param_grad's are the first shard's here: they describe the gradient summed over the shards,
//   which only its tensor gives (tensor_files.h computes them again from it).
#pragma once
#include <vector>

#include "rundir/run_dir.h"
#include "merge/shard_run.h"

namespace modrec {

// `shards`: the runs that recorded something (ShardRun::recorded), in shard order; the result
// has their layers, whose `files` are left empty (the merged files are written elsewhere).
// Throws Error(bad_input) naming the pair of runs when their layers differ (label, module path,
// type, call number, captures, tensors and their names, dtypes, shapes but dim 0 of per-sample
// ones), and when param_grad would have to be summed over several shards that saved no tensors
// (--save none).
std::vector<RunLayer> merge_stats(const std::vector<const ShardRun*>& shards);

}  // namespace modrec
