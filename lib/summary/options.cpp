#include "summary/options.h"

#include <algorithm>

#include "util/error.h"

namespace modrec {

namespace {
std::string joined(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& item : list) out += (out.empty() ? "" : ",") + item;
  return out;
}

template <class E>
E parse_name(const EnumNames<E>& names, const std::string& name, const char* flag,
             const char* kind) {
  if (const E* value = value_named(names, name)) return *value;
  throw Error(Exit::usage, std::string("unknown ") + kind + " '" + name + "'", flag,
              "valid values are " + joined(names_of(names)));
}
}  // namespace

const EnumNames<Column>& column_names() {
  static const EnumNames<Column> names{
      {"kernel_size", Column::kernel_size},       {"input_size", Column::input_size},
      {"output_size", Column::output_size},       {"num_params", Column::num_params},
      {"params_percent", Column::params_percent}, {"mult_adds", Column::mult_adds},
      {"trainable", Column::trainable},           {"flops", Column::flops},
      {"saved_bytes", Column::saved_bytes},       {"peak_bytes", Column::peak_bytes}};
  return names;
}

const EnumNames<RowSetting>& row_setting_names() {
  static const EnumNames<RowSetting> names{
      {"depth", RowSetting::depth},
      {"var_names", RowSetting::var_names},
      {"ascii_only", RowSetting::ascii_only},
      {"hide_recursive_layers", RowSetting::hide_recursive_layers}};
  return names;
}

bool SummaryOptions::has(RowSetting setting) const {
  return std::find(row_settings.begin(), row_settings.end(), setting) != row_settings.end();
}

bool SummaryOptions::wants_flops() const {
  return std::find(columns.begin(), columns.end(), Column::flops) != columns.end();
}

bool SummaryOptions::wants_memory() const {
  return std::any_of(columns.begin(), columns.end(),
                     [](Column c) { return c == Column::saved_bytes || c == Column::peak_bytes; });
}

Column parse_column(const std::string& name) {
  return parse_name(column_names(), name, "--columns", "column");
}

RowSetting parse_row_setting(const std::string& name) {
  return parse_name(row_setting_names(), name, "--row-settings", "row setting");
}

void validate(const SummaryOptions& options) {
  if (options.depth < 0)
    throw Error(Exit::usage, "depth must be 0 or more, got " + std::to_string(options.depth),
                "--depth", "valid values are integers >= 0");
  if (options.col_width <= 0)
    throw Error(Exit::usage,
                "column width must be greater than 0, got " + std::to_string(options.col_width),
                "--col-width", "valid values are integers >= 1");
}

std::vector<Column> effective_columns(const SummaryOptions& options, bool has_input) {
  if (!options.columns.empty()) return options.columns;
  if (has_input) return {Column::output_size, Column::num_params};
  return {Column::num_params};
}

std::string column_title(Column column) {
  switch (column) {
    case Column::kernel_size:
      return "Kernel Shape";
    case Column::input_size:
      return "Input Shape";
    case Column::output_size:
      return "Output Shape";
    case Column::num_params:
      return "Param #";
    case Column::params_percent:
      return "Param %";
    case Column::mult_adds:
      return "Mult-Adds";
    case Column::trainable:
      return "Trainable";
    case Column::flops:
      return "FLOPs";
    case Column::saved_bytes:
      return "Saved for Backward";
    case Column::peak_bytes:
      return "Peak Memory";
  }
  return "";
}

}  // namespace modrec
