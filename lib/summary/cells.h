// The text of one row's cells, as torchinfo's LayerInfo and FormattingOptions render them.
#pragma once
#include <string>
#include <vector>

#include "model/module_tree.h"
#include "summary/options.h"
#include "summary/summary.h"

namespace modrec {

// "Conv2d", "Embedding (embedding)", "Linear: 2-3", per the var_names and depth row settings.
std::string layer_name(const LayerRow& row, const ModuleTree& tree, const SummaryOptions& options);
// Tree prefix of a row at this depth: "", "├─", "│    └─" (ascii_only: "+ ", "|    + ").
std::string tree_prefix(int depth, bool ascii_only);

// The cell of `column` for row `index` ("--" when empty).
std::string cell(const Summary& summary, size_t index, Column column,
                 const SummaryOptions& options);

}  // namespace modrec
