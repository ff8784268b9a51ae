// The text table torchinfo 1.8.0 prints, byte for byte (torch-free).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "model/module_tree.h"
#include "summary/options.h"
#include "summary/summary.h"

namespace modrec {

// The whole table, dividers and footer included, ending in a newline.
std::string format_table(const Summary& summary, const ModuleTree& tree,
                         const SummaryOptions& options);

// torchinfo's footer lines after the rows, without dividers: "Total params: 21,840", ...
// Mult-adds and sizes only when the model ran.
std::vector<std::string> totals_lines(const Summary& summary);

// The measured memory's lines (Summary::memory.measured, else none): the forward's peak, the
// forward and backward's, the bytes saved for the backward, and the calls at the two peaks.
std::vector<std::string> memory_lines(const Summary& summary);

// Mult-adds in the footer's unit: {"M", "0.98"}; a whole number prints without decimals.
std::pair<std::string, std::string> readable_mult_adds(int64_t mult_adds);

}  // namespace modrec
