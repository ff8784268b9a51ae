// Per-layer parameter counts and mult-adds, as torchinfo's LayerInfo computes them.
#pragma once
#include "model/module_tree.h"
#include "summary/layer_row.h"

namespace modrec {

// torchinfo's calculate_num_params: every parameter of the module's subtree (named_parameters
// order), and the verbose rows. The root shows only its direct parameters there.
void count_params(const ModuleTree& tree, LayerRow& row, bool is_root);

// torchinfo's calculate_macs for one finished call with this output size.
int64_t call_macs(const ModuleTree& tree, int module, const Shape& output_size);

}  // namespace modrec
