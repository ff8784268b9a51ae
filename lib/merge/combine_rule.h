// How the shards' values of one capture make the whole's (torch-free). A shard is a contiguous
// run of samples, so per-sample values line up in shard order; what record reduced over samples
// or summed over batches adds up; a module's parameters are the same in every shard.
#pragma once
#include <string>

#include "rundir/saved_tensors.h"

namespace modrec {

// The tensors.
enum class Combine {
  concatenate,  // input, output, grad_input, grad_output: along dim 0, in shard order
  sum,          // the same under --reduce sum; param_grad (each shard's gradient sums its batches')
  mean,         // the same under --reduce mean: each shard's mean weighted by its samples
  first,        // param: equal in every shard
};

// The statistics.
enum class StatsRule {
  merge,         // per-sample data: merged exactly (RunningStats::merge), dim 0 of shapes added
  first,         // param: the first shard's
  from_tensors,  // param_grad: of the summed gradient, so computed again from the merged tensor
};

// `capture` by its name in the run directory ("output", "param_grad"); `reduce`: the runs'.
Combine combine_rule(const std::string& capture, Reduce reduce);
StatsRule stats_rule(const std::string& capture);

}  // namespace modrec
