// The shard runs put in order and checked to be all N parts of one input (torch-free): every
// index 0..N-1 exactly once, the parts' sample ranges tiling the whole input's samples [0, S)
// in index order, without gap or overlap.
#pragma once
#include <vector>

#include "merge/shard_run.h"

namespace modrec {

// The runs sorted by shard index. Expects runs of one recording (run_identity.h: one shard
// count). Throws Error(bad_input) naming the pair of runs (or the one run) where the tiling
// breaks: an index twice, an index missing between two runs or at either end, ranges that
// overlap or leave a gap, ranges that do not end at S.
std::vector<ShardRun> in_shard_order(std::vector<ShardRun> runs);

}  // namespace modrec
