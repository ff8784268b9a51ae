// manifest.json of a merged recording (torch-free; format: docs/run-dir.md): the first shard's,
// which every shard shares but for what describes its part, with
// - "shard": null and "merged_from": the shard runs' directories, in shard order;
// - "samples": the whole input's; "batches": the shards' summed;
// - "kept_batches": each shard's batch numbers moved past the batches the shards before it
//   formed, so that they count the batches in the order of the whole input (the batches of an
//   unsharded run when --batch-size divides the shards' sizes);
// - "first_nonfinite": the first shard's that has one, its batch renumbered the same way;
// - "layers": those of the shards that recorded something (merged_stats.h checks that they are
//   the same), with dim 0 of each concatenated capture's shapes added up; file names stay.
#pragma once
#include <nlohmann/json.hpp>

#include <vector>

#include "merge/shard_run.h"
#include "rundir/run_manifest.h"

namespace modrec {

// `shards`: every shard run, in shard order.
RunManifest merged_manifest(const std::vector<ShardRun>& shards);

}  // namespace modrec
