// The merged run's tensor files (torch-free here; LibTorch only in tensor_files.cpp): every saved
// capture of the recorded shards combined by its rule (combine_rule.h) into `out_dir`, under the
// paths the first shard's manifest names.
#pragma once
#include <string>
#include <vector>

#include "merge/shard_run.h"

namespace modrec {

// Writes the files; a capture whose statistics come from its merged tensors (param_grad: the
// summed gradient) gets them in `layers`. `shards` in shard order, every one recorded.
void merge_tensors(const std::vector<const ShardRun*>& shards, std::vector<RunLayer>& layers,
                   const std::string& out_dir);

}  // namespace modrec
