// stats.csv columns of one RunningStats; record/ prepends its label, capture and tensor columns.
#pragma once
#include <string>
#include <vector>

#include "stats/running_stats.h"

namespace modrec {

// count, finite_count, mean, std, min, max, abs_max, l2_norm, zero_fraction, nan_count, inf_count
std::vector<std::string> stats_csv_header();
// Reals in %.17g (round-trip exact); an undefined (NaN) value is an empty cell.
std::vector<std::string> stats_csv_cells(const RunningStats& s);

}  // namespace modrec
