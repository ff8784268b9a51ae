#include "summary/cells.h"

#include "summary/text.h"

namespace modrec {

namespace {
const std::string kEmpty = "--";

std::string shape_cell(const Shape& shape) {
  return shape.empty() ? kEmpty : text::list_repr(shape);
}

std::string kernel_cell(const std::optional<Kernel>& kernel) {
  if (!kernel || kernel->dims.empty()) return kEmpty;
  if (!kernel->is_int) return text::list_repr(kernel->dims);
  return kernel->dims[0] == 0 ? kEmpty : std::to_string(kernel->dims[0]);
}

// A row at the depth limit stands for its whole subtree; a shown container only for the
// parameters no row below it counts.
std::string params_cell(const LayerRow& row, bool reached_max_depth) {
  if (row.num_params == 0) return kEmpty;
  if (row.is_recursive) return "(recursive)";
  if (reached_max_depth || row.is_leaf) {
    const std::string count = text::with_commas(row.num_params);
    return row.trainable_params ? count : "(" + count + ")";
  }
  return row.leftover_params > 0 ? text::with_commas(row.leftover_params) : kEmpty;
}

std::string percent_cell(const LayerRow& row, bool reached_max_depth, int64_t total) {
  const std::string zero = "     " + kEmpty;
  if (total == 0) return zero;
  if (row.is_recursive) return "(recursive)";
  const int64_t params = reached_max_depth || row.is_leaf ? row.num_params : row.leftover_params;
  if (params == 0) return zero;
  return text::percent7(static_cast<double>(params) / static_cast<double>(total));
}

std::string macs_cell(const Summary& summary, const LayerRow& row, bool reached_max_depth) {
  if (row.macs <= 0) return kEmpty;
  if (row.is_leaf) return text::with_commas(row.macs);
  if (!reached_max_depth) return kEmpty;
  int64_t sum = 0;
  for (int c = row.children_begin; c < row.children_end; ++c)
    if (summary.rows[c].is_leaf) sum += summary.rows[c].macs;
  return text::with_commas(sum);
}

std::string trainable_cell(const LayerRow& row) {
  if (row.num_params == 0) return kEmpty;
  if (row.trainable_params == 0) return "False";
  return row.num_params == row.trainable_params ? "True" : "Partial";
}
}  // namespace

std::string layer_name(const LayerRow& row, const ModuleTree& tree, const SummaryOptions& options) {
  const Module& m = tree.modules[row.module];
  std::string name = m.type;
  if (options.has(RowSetting::var_names) && !m.var_name.empty()) name += " (" + m.var_name + ")";
  if (options.has(RowSetting::depth) && row.depth > 0)
    name += ": " + std::to_string(row.depth) + "-" + std::to_string(row.depth_index);
  return name;
}

std::string tree_prefix(int depth, bool ascii_only) {
  if (depth == 0) return "";
  const std::string branch = ascii_only ? "+ " : (depth == 1 ? "├─" : "└─");
  std::string out;
  for (int d = 1; d < depth; ++d) out += ascii_only ? "|    " : "│    ";
  return out + branch;
}

std::string cell(const Summary& summary, size_t index, Column column,
                 const SummaryOptions& options) {
  const LayerRow& row = summary.rows[index];
  const bool reached_max_depth = row.depth == options.depth;
  switch (column) {
    case Column::kernel_size:
      return kernel_cell(row.kernel);
    case Column::input_size:
      return shape_cell(row.inputs.size);
    case Column::output_size:
      return shape_cell(row.outputs.size);
    case Column::num_params:
      return params_cell(row, reached_max_depth);
    case Column::params_percent:
      return percent_cell(row, reached_max_depth, summary.totals.total_params);
    case Column::mult_adds:
      return macs_cell(summary, row, reached_max_depth);
    case Column::trainable:
      return trainable_cell(row);
    // Every executed row: the forward FLOPs of its whole call, as FlopCounterMode counts a module.
    case Column::flops:
      return row.executed ? text::with_commas(row.flops_forward) : kEmpty;
    // Every executed row: bytes, its nested calls included (a container holds its children's).
    case Column::saved_bytes:
      return row.executed ? text::with_commas(row.memory.saved_bytes) : kEmpty;
    case Column::peak_bytes:
      return row.executed ? text::with_commas(row.memory.peak_forward_bytes) : kEmpty;
  }
  return "";
}

}  // namespace modrec
