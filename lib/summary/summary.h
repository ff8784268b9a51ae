// The summary stage's entry point: rows, labels and totals of one pass (torch-free).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/call_trace.h"
#include "model/module_tree.h"
#include "summary/layer_row.h"
#include "summary/options.h"
#include "summary/totals.h"

namespace modrec {

struct Summary {
  std::vector<LayerRow> rows;
  Totals totals;
  bool has_input = false;   // the model ran: shapes, mult-adds and sizes are known
  int64_t input_bytes = 0;  // all input tensors
  bool has_flops = false;   // FLOPs were counted (the flops column)
  // Measured when a memory column was asked (CallTrace::memory), its peaks' calls named by
  // their rows' labels.
  MeasuredMemory memory;
  std::map<std::string, int64_t> unattributed_ops;  // CallTrace::unattributed_ops
};

// input_bytes: the bytes of every input tensor, for "Input size (MB)".
Summary summarize(const ModuleTree& tree, const CallTrace& trace, int64_t input_bytes);

// Whether the table shows this row under these options (depth limit, hide_recursive_layers).
bool row_visible(const LayerRow& row, const SummaryOptions& options);

}  // namespace modrec
