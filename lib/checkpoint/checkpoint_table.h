// `modrec summary CHECKPOINT`: torchinfo's table shape over a checkpoint's tensor names. A module
// is a name prefix ("encoder.layers.0"); its row holds the parameter count of every tensor under
// it, and its own tensors follow it with their shapes and dtypes (torch-free).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checkpoint/checkpoint.h"
#include "summary/exports.h"
#include "summary/options.h"

namespace modrec {

struct CheckpointRow {
  std::string path;    // "" for the root, else "encoder.layers.0"
  std::string name;    // the last part of the path: "0"; the root's is the file's name
  int depth = 0;       // the root's 0
  std::string label;   // "2-1": depth and its index among the rows of that depth, as torchinfo's
  int64_t params = 0;  // every tensor's elements under it
  std::vector<size_t> tensors;  // its own, indices into Checkpoint::tensors
  // A tensor subclass's row (torchao's fc1.weight, its inner tensors its own): the index into
  // Checkpoint::subclasses; -1 for a module.
  int subclass = -1;
};

struct DTypeTotal {
  int64_t params = 0, bytes = 0, tensors = 0;
};

struct CheckpointSummary {
  std::vector<CheckpointRow> rows;  // preorder, in the order the checkpoint first names them
  int64_t params = 0, bytes = 0;
  std::map<DType, DTypeTotal> by_dtype;
};

CheckpointSummary summarize(const Checkpoint& checkpoint);

// `options`: depth (rows deeper are left out, their parameters counted in the rows above) and
// row setting ascii_only. json holds every row whatever the depth.
std::string format_checkpoint(const Checkpoint& checkpoint, const CheckpointSummary& summary,
                              const SummaryOptions& options, SummaryFormat format);

}  // namespace modrec
