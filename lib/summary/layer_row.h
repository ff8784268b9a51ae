// One row of the summary: torchinfo's LayerInfo after the forward pass (torch-free).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/call_trace.h"
#include "model/module_tree.h"

namespace modrec {

// One parameter under a layer, for torchinfo's verbose=2 rows.
struct ParamRow {
  std::string name;    // relative to the layer's module: "weight", "0.bias"
  std::string kernel;  // its shape, first two dims swapped for a direct "weight": "[300, 20]"
  std::string count;   // "├─6,000", or "└─6,000" on the last one
};

struct LayerRow {
  int module = 0;       // index in ModuleTree::modules
  int call = -1;        // index in CallTrace::calls; -1 for an inserted container row
  int depth = 0;        // nesting in the module tree
  int depth_index = 0;  // the "i" of the "d-i" label
  std::string label;    // "d-i"; the root's is "0-1" and is never printed
  int parent = -1;      // nearest earlier row of smaller depth; -1 for the first row
  bool is_recursive = false;
  bool is_leaf = false;      // the module has no submodules
  bool executed = false;     // its call returned and filled the shapes
  bool traced_away = false;  // its call passed no data (Call::traced_away)
  int64_t num_params = 0;    // the whole subtree's parameters
  int64_t trainable_params = 0;
  int64_t param_bytes = 0;
  int64_t leftover_params = 0;  // params not counted by the rows below it
  int64_t leftover_trainable_params = 0;
  int64_t macs = 0;
  // FLOPs of everything that ran while the call was open, nested calls included (FlopCounterMode's
  // per-module figure), in the forward and in the backward of what its forward created.
  int64_t flops_forward = 0;
  int64_t flops_backward = 0;
  CallMemory memory;  // its call's, measured (when Summary::memory.totals.measured)
  ValueMeta inputs;   // empty unless executed
  ValueMeta outputs;
  int64_t output_bytes = 0;  // bytes of outputs.size
  std::optional<Kernel> kernel;
  std::vector<ParamRow> param_rows;
  // Rows [children_begin, children_end) follow it at a greater depth (torchinfo's children).
  int children_begin = 0;
  int children_end = 0;
};

}  // namespace modrec
