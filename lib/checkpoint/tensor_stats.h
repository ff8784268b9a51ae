// `modrec check CHECKPOINT`: every tensor's statistics (stats/running_stats.h's rules), streamed
// from the memory-mapped files on several threads, and the checkpoint as the run check's rules
// read: a layer per module, its own tensors as the capture "param" (torch-free).
#pragma once
#include <vector>

#include "checkpoint/checkpoint.h"
#include "checkpoint/checkpoint_table.h"
#include "rundir/run_dir.h"
#include "stats/running_stats.h"

namespace modrec {

// Statistics of each tensor of `checkpoint`, in its order; `threads` 0: one per core.
std::vector<RunningStats> tensor_stats(const Checkpoint& checkpoint, int threads);

// Rows with tensors of their own become layers (label, path; no type: a checkpoint names no
// class), their tensors the capture "param" ("param.weight").
RunDir as_run(const Checkpoint& checkpoint, const CheckpointSummary& summary,
              const std::vector<RunningStats>& stats);

}  // namespace modrec
