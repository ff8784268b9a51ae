// What the user chose to see: torchinfo's col_names, row_settings, depth and col_width, as types.
// The CLI parses each name once, where the flag is read (parse_column, parse_row_setting).
#pragma once
#include <string>
#include <vector>

#include "util/enum_names.h"

namespace modrec {

// torchinfo's col_names, in its order.
enum class Column {
  kernel_size,
  input_size,
  output_size,
  num_params,
  params_percent,
  mult_adds,
  trainable,
  flops,
  saved_bytes,  // measured: bytes autograd saved for the backward in the call's forward
  peak_bytes    // measured: the peak of allocated bytes in the call's forward
};
const EnumNames<Column>& column_names();
// torchinfo's row_settings.
enum class RowSetting { depth, var_names, ascii_only, hide_recursive_layers };
const EnumNames<RowSetting>& row_setting_names();

struct SummaryOptions {
  int depth = 3;
  std::vector<Column> columns;  // empty: output_size,num_params with an input, else num_params
  std::vector<RowSetting> row_settings = {RowSetting::depth};
  int col_width = 25;
  bool verbose_params = false;  // torchinfo's verbose=2: one row per parameter under each layer

  bool has(RowSetting setting) const;
  // The flops column is asked for: the pass runs forward and backward under the FLOP observer.
  bool wants_flops() const;
  // A memory column is asked for: the pass runs forward and backward under the memory meter
  // (memory/memory_meter.h).
  bool wants_memory() const;
};

// The value a name stands for; Error(usage) naming --columns or --row-settings and listing the
// valid names.
Column parse_column(const std::string& name);
RowSetting parse_row_setting(const std::string& name);

// Throws Error(Exit::usage) naming the flag for a depth below 0 or a column width below 1.
void validate(const SummaryOptions& options);

// The columns to show: the user's, or torchinfo's default for this kind of run.
std::vector<Column> effective_columns(const SummaryOptions& options, bool has_input);
// Column title as torchinfo prints it: "Output Shape".
std::string column_title(Column column);

}  // namespace modrec
