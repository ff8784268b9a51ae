// torchinfo's summary_list: one row per module call, inserted container rows, and the
// "d-i" labels, built from the plain module tree and call trace (torch-free).
#pragma once
#include <string>
#include <vector>

#include "model/call_trace.h"
#include "model/module_tree.h"
#include "summary/layer_row.h"

namespace modrec {

// Rows in torchinfo's order with params, shapes, mult-adds, labels and leftover params.
std::vector<LayerRow> build_rows(const ModuleTree& tree, const CallTrace& trace);

}  // namespace modrec
