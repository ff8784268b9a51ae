// What the user chose to see: torchinfo's col_names, row_settings, depth and col_width.
#pragma once
#include <string>
#include <vector>

namespace modrec {

struct SummaryOptions {
  int depth = 3;
  std::vector<std::string> columns;  // empty: output_size,num_params with an input, else num_params
  std::vector<std::string> row_settings = {
      "depth"};  // depth,var_names,ascii_only,hide_recursive_layers
  int col_width = 25;
  bool verbose_params = false;  // torchinfo's verbose=2: one row per parameter under each layer
};

const std::vector<std::string>& valid_columns();
const std::vector<std::string>& valid_row_settings();

// Throws Error(Exit::usage) naming the flag and listing its valid values. Without an input the
// shape and mult-adds columns have nothing to show, so they are refused.
void validate(const SummaryOptions& options, bool has_input = true);

// The columns to show: the user's, or torchinfo's default for this kind of run.
std::vector<std::string> effective_columns(const SummaryOptions& options, bool has_input);
// Column title as torchinfo prints it: "Output Shape".
std::string column_title(const std::string& column);
bool has_row_setting(const SummaryOptions& options, const std::string& setting);
// The flops column is asked for: the pass runs forward and backward under the FLOP observer.
bool wants_flops(const SummaryOptions& options);

}  // namespace modrec
