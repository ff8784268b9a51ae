#include "summary/options.h"

#include <algorithm>

#include "util/error.h"

namespace modrec {

namespace {
const std::vector<std::string> kTitles = {"Kernel Shape", "Input Shape", "Output Shape", "Param #",
                                          "Param %",      "Mult-Adds",   "Trainable",    "FLOPs"};

bool contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

std::string joined(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& item : list) out += (out.empty() ? "" : ",") + item;
  return out;
}

void check_listed(const std::vector<std::string>& given, const std::vector<std::string>& valid,
                  const char* flag, const char* kind) {
  for (const auto& value : given)
    if (!contains(valid, value))
      throw Error(Exit::usage, std::string("unknown ") + kind + " '" + value + "'", flag,
                  "valid values are " + joined(valid));
}

bool needs_input(const std::string& column) {
  return column == "input_size" || column == "output_size" || column == "mult_adds" ||
         column == "flops";
}
}  // namespace

const std::vector<std::string>& valid_columns() {
  static const std::vector<std::string> columns = {"kernel_size", "input_size",     "output_size",
                                                   "num_params",  "params_percent", "mult_adds",
                                                   "trainable",   "flops"};
  return columns;
}

const std::vector<std::string>& valid_row_settings() {
  static const std::vector<std::string> settings = {"depth", "var_names", "ascii_only",
                                                    "hide_recursive_layers"};
  return settings;
}

void validate(const SummaryOptions& options, bool has_input) {
  check_listed(options.columns, valid_columns(), "--columns", "column");
  check_listed(options.row_settings, valid_row_settings(), "--row-settings", "row setting");
  if (options.depth < 0)
    throw Error(Exit::usage, "depth must be 0 or more, got " + std::to_string(options.depth),
                "--depth", "valid values are integers >= 0");
  if (options.col_width <= 0)
    throw Error(Exit::usage,
                "column width must be greater than 0, got " + std::to_string(options.col_width),
                "--col-width", "valid values are integers >= 1");
  if (has_input) return;
  for (const auto& column : options.columns)
    if (needs_input(column))
      throw Error(Exit::usage, "column '" + column + "' needs an input", "--columns",
                  "pass --input or --input-size, or use kernel_size,num_params,params_percent,"
                  "trainable");
}

std::vector<std::string> effective_columns(const SummaryOptions& options, bool has_input) {
  if (!options.columns.empty()) return options.columns;
  if (has_input) return {"output_size", "num_params"};
  return {"num_params"};
}

std::string column_title(const std::string& column) {
  const auto& columns = valid_columns();
  auto it = std::find(columns.begin(), columns.end(), column);
  return it == columns.end() ? column : kTitles[it - columns.begin()];
}

bool has_row_setting(const SummaryOptions& options, const std::string& setting) {
  return contains(options.row_settings, setting);
}

bool wants_flops(const SummaryOptions& options) { return contains(options.columns, "flops"); }

}  // namespace modrec
