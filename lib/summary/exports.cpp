#include "summary/exports.h"

#include "util/csv_path.h"
#include "util/text.h"

#include "summary/cells.h"
#include "summary/table.h"
#include "summary/text.h"

namespace modrec {

const EnumNames<SummaryFormat>& summary_format_names() {
  static const EnumNames<SummaryFormat> names{{"table", SummaryFormat::table},
                                              {"json", SummaryFormat::json},
                                              {"csv", SummaryFormat::csv},
                                              {"markdown", SummaryFormat::markdown}};
  return names;
}

namespace {
using nlohmann::json;

json tensors_json(const ValueMeta& value) {
  json out = json::array();
  for (const TensorInfo& t : value.tensors) out.push_back({{"shape", t.shape}, {"dtype", t.dtype}});
  return out;
}

json kernel_json(const std::optional<Kernel>& kernel) {
  if (!kernel) return nullptr;
  if (kernel->is_int && !kernel->dims.empty()) return kernel->dims[0];
  return kernel->dims;
}

std::string parent_label(const Summary& summary, const LayerRow& row) {
  return row.parent < 0 ? "" : summary.rows[row.parent].label;
}

json row_json(const Summary& summary, const LayerRow& row, const ModuleTree& tree,
              const SummaryOptions& options) {
  const Module& m = tree.modules[row.module];
  json out = {{"label", row.label},
              {"path", m.path},
              {"type", m.type},
              {"var_name", m.var_name},
              {"depth", row.depth},
              {"idx", row.depth_index},
              {"parent", row.parent < 0 ? json(nullptr) : json(parent_label(summary, row))},
              {"call", row.call < 0 ? json(nullptr) : json(row.call)},
              {"is_recursive", row.is_recursive},
              {"is_leaf", row.is_leaf},
              {"executed", row.executed},
              {"traced_away", row.traced_away},
              {"shown", row_visible(row, options)},
              {"input_size", row.inputs.size},
              {"output_size", row.outputs.size},
              {"inputs", tensors_json(row.inputs)},
              {"outputs", tensors_json(row.outputs)},
              {"output_bytes", row.output_bytes},
              {"num_params", row.num_params},
              {"trainable_params", row.trainable_params},
              {"leftover_params", row.leftover_params},
              {"param_bytes", row.param_bytes},
              {"kernel", kernel_json(row.kernel)},
              {"mult_adds", row.macs}};
  if (summary.has_flops) {
    out["flops_forward"] = row.flops_forward;
    out["flops_backward"] = row.flops_backward;
  }
  if (summary.memory.totals.measured) out["memory"] = row.memory;
  return out;
}

json totals_json(const Summary& summary) {
  const Totals& t = summary.totals;
  json out = {{"total_params", t.total_params},
              {"trainable_params", t.trainable_params},
              {"non_trainable_params", t.total_params - t.trainable_params}};
  if (!summary.has_input) return out;
  out["mult_adds"] = t.mult_adds;
  out["input_bytes"] = summary.input_bytes;
  out["forward_backward_bytes"] = t.output_bytes;
  out["param_bytes"] = t.param_bytes;
  out["total_bytes"] = summary.input_bytes + t.output_bytes + t.param_bytes;
  if (summary.memory.totals.measured) out["memory"] = summary.memory;
  if (!summary.has_flops) return out;
  out["flops_forward"] = t.flops_forward;
  out["flops_backward"] = t.flops_backward;
  out["unattributed_ops"] = summary.unattributed_ops;
  return out;
}

// Every tensor's shape, "; "-separated: "[1, 100, 512]; [2, 1, 512]".
std::string shapes_field(const ValueMeta& value) {
  std::string out;
  for (const TensorInfo& t : value.tensors)
    out += (out.empty() ? "" : "; ") + text::list_repr(t.shape);
  return out;
}

std::string dtypes_field(const ValueMeta& value) {
  std::string out;
  for (const TensorInfo& t : value.tensors) out += (out.empty() ? "" : "; ") + t.dtype;
  return out;
}

const std::vector<std::string> kCsvHeader = {
    "label",         "path",          "type",         "var_name",     "depth",
    "idx",           "parent",        "is_recursive", "input_shapes", "input_dtypes",
    "output_shapes", "output_dtypes", "kernel",       "num_params",   "trainable_params",
    "trainable",     "mult_adds"};

std::vector<std::string> csv_row(const Summary& summary, size_t i, const ModuleTree& tree,
                                 const SummaryOptions& options) {
  const LayerRow& row = summary.rows[i];
  const Module& m = tree.modules[row.module];
  return {row.label,
          csv_path(m.path),
          m.type,
          m.var_name,
          std::to_string(row.depth),
          std::to_string(row.depth_index),
          parent_label(summary, row),
          row.is_recursive ? "true" : "false",
          shapes_field(row.inputs),
          dtypes_field(row.inputs),
          shapes_field(row.outputs),
          dtypes_field(row.outputs),
          cell(summary, i, Column::kernel_size, options),
          std::to_string(row.num_params),
          std::to_string(row.trainable_params),
          cell(summary, i, Column::trainable, options),
          std::to_string(row.macs)};
}

std::string md_escape(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string md_line(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const auto& c : cells) line += " " + md_escape(c) + " |";
  return line + "\n";
}

std::string md_rule(size_t n) {
  std::string line = "|";
  for (size_t i = 0; i < n; ++i) line += " --- |";
  return line + "\n";
}

std::string md_totals(const Summary& summary) {
  std::string out = md_line({"Total", "Value"}) + md_rule(2);
  std::vector<std::string> lines = totals_lines(summary);
  for (const std::string& line : memory_lines(summary)) lines.push_back(line);
  for (const std::string& line : lines) {
    const size_t colon = line.rfind(": ");
    out += md_line({line.substr(0, colon), line.substr(colon + 2)});
  }
  return out;
}
}  // namespace

json to_json(const Summary& summary, const ModuleTree& tree, const SummaryOptions& options) {
  json rows = json::array();
  for (const LayerRow& row : summary.rows) rows.push_back(row_json(summary, row, tree, options));
  return {{"has_input", summary.has_input}, {"rows", rows}, {"totals", totals_json(summary)}};
}

std::string format_csv(const Summary& summary, const ModuleTree& tree,
                       const SummaryOptions& options) {
  std::vector<std::string> header = kCsvHeader;
  if (summary.has_flops) header.insert(header.end(), {"flops_forward", "flops_backward"});
  if (summary.memory.totals.measured)
    header.insert(header.end(), {"saved_bytes", "peak_forward_bytes", "peak_backward_bytes"});
  std::string out = csv_line(header);
  for (size_t i = 0; i < summary.rows.size(); ++i) {
    if (!row_visible(summary.rows[i], options)) continue;
    std::vector<std::string> fields = csv_row(summary, i, tree, options);
    if (summary.has_flops)
      fields.insert(fields.end(), {std::to_string(summary.rows[i].flops_forward),
                                   std::to_string(summary.rows[i].flops_backward)});
    if (summary.memory.totals.measured) {
      const CallMemory& m = summary.rows[i].memory;
      fields.insert(fields.end(),
                    {std::to_string(m.saved_bytes), std::to_string(m.peak_forward_bytes),
                     std::to_string(m.peak_backward_bytes)});
    }
    out += csv_line(fields);
  }
  return out;
}

std::string format_markdown(const Summary& summary, const ModuleTree& tree,
                            const SummaryOptions& options) {
  const std::vector<Column> columns = effective_columns(options, summary.has_input);
  std::vector<std::string> titles = {"Layer"};
  for (const auto& c : columns) titles.push_back(column_title(c));
  std::string out = md_line(titles) + md_rule(titles.size());
  const bool ascii_only = options.has(RowSetting::ascii_only);
  for (size_t i = 0; i < summary.rows.size(); ++i) {
    const LayerRow& row = summary.rows[i];
    if (!row_visible(row, options)) continue;
    std::vector<std::string> cells = {tree_prefix(row.depth, ascii_only) +
                                      layer_name(row, tree, options)};
    for (const auto& c : columns) cells.push_back(cell(summary, i, c, options));
    out += md_line(cells);
  }
  return out + "\n" + md_totals(summary);
}

}  // namespace modrec
