#include "summary/table.h"

#include <algorithm>
#include <cmath>

#include "summary/cells.h"
#include "summary/text.h"

namespace modrec {

namespace {

struct Layout {
  std::vector<Column> columns;
  size_t name_width = 40;
  size_t col_width = 25;
};

// The longest "name + indentation", rounded up to a multiple of 5 once it reaches 40; every
// row counts, shown or not.
size_t name_width(const Summary& summary, const ModuleTree& tree, const SummaryOptions& options) {
  size_t longest = 0;
  for (const LayerRow& row : summary.rows)
    longest = std::max(longest, text::display_len(layer_name(row, tree, options)) +
                                    static_cast<size_t>(row.depth) * 5 + 1);
  return longest >= 40 ? (longest + 4) / 5 * 5 : 40;
}

std::string format_row(const Layout& layout, const std::string& name,
                       const std::vector<std::string>& cells) {
  std::string line = text::pad_right(name, layout.name_width) + " ";
  for (const std::string& c : cells) line += text::pad_right(c, layout.col_width) + " ";
  return text::rstrip(line) + "\n";
}

std::string header(const Layout& layout, const SummaryOptions& options) {
  std::string title = "Layer (type";
  if (options.has(RowSetting::var_names)) title += " (var_name)";
  if (options.has(RowSetting::depth)) title += ":depth-idx";
  std::vector<std::string> titles;
  for (const auto& c : layout.columns) titles.push_back(column_title(c));
  return format_row(layout, title + ")", titles);
}

// verbose=2: each parameter under its layer, with its shape and count only.
std::string param_rows(const Layout& layout, const LayerRow& row, bool ascii_only) {
  std::string out;
  for (const ParamRow& p : row.param_rows) {
    std::vector<std::string> cells;
    for (const auto& c : layout.columns)
      cells.push_back(c == Column::kernel_size ? p.kernel : c == Column::num_params ? p.count : "");
    out += format_row(layout, tree_prefix(row.depth + 1, ascii_only) + p.name, cells);
  }
  return out;
}

std::string layer_rows(const Layout& layout, const Summary& summary, const ModuleTree& tree,
                       const SummaryOptions& options) {
  const bool ascii_only = options.has(RowSetting::ascii_only);
  std::string out;
  for (size_t i = 0; i < summary.rows.size(); ++i) {
    const LayerRow& row = summary.rows[i];
    if (!row_visible(row, options)) continue;
    std::vector<std::string> cells;
    for (const auto& c : layout.columns) cells.push_back(cell(summary, i, c, options));
    out += format_row(layout, tree_prefix(row.depth, ascii_only) + layer_name(row, tree, options),
                      cells);
    if (options.verbose_params) out += param_rows(layout, row, ascii_only);
  }
  return out;
}

// A float that is a whole number prints as an int, as torchinfo's format_output_num does.
std::string readable_number(double value) {
  if (value == std::floor(value) && std::fabs(value) < 9e18)
    return text::with_commas(static_cast<int64_t>(value));
  return text::fixed2_commas(value);
}

std::string megabytes(int64_t bytes) { return text::fixed2(static_cast<double>(bytes) / 1e6); }

}  // namespace

std::pair<std::string, std::string> readable_mult_adds(int64_t mult_adds) {
  const double n = static_cast<double>(mult_adds);
  if (n >= 1e12) return {"T", readable_number(n / 1e12)};
  if (n >= 1e9) return {"G", readable_number(n / 1e9)};
  return {"M", readable_number(n / 1e6)};
}

std::vector<std::string> totals_lines(const Summary& summary) {
  const Totals& t = summary.totals;
  std::vector<std::string> lines = {
      "Total params: " + text::with_commas(t.total_params),
      "Trainable params: " + text::with_commas(t.trainable_params),
      "Non-trainable params: " + text::with_commas(t.total_params - t.trainable_params)};
  if (!summary.has_input) return lines;
  const auto [unit, value] = readable_mult_adds(t.mult_adds);
  lines.push_back("Total mult-adds (" + unit + "): " + value);
  if (summary.has_flops) {
    for (const auto& [pass, flops] :
         {std::pair{"forward", t.flops_forward}, std::pair{"backward", t.flops_backward}}) {
      const auto [flops_unit, flops_value] = readable_mult_adds(flops);
      lines.push_back(std::string("Total FLOPs, ") + pass + " (" + flops_unit +
                      "): " + flops_value);
    }
  }
  lines.push_back("Input size (MB): " + megabytes(summary.input_bytes));
  lines.push_back("Forward/backward pass size (MB): " + megabytes(t.output_bytes));
  lines.push_back("Params size (MB): " + megabytes(t.param_bytes));
  lines.push_back("Estimated Total Size (MB): " +
                  megabytes(summary.input_bytes + t.output_bytes + t.param_bytes));
  return lines;
}

std::vector<std::string> memory_lines(const Summary& summary) {
  const MemoryTotals& m = summary.memory.totals;
  if (!m.measured) return {};
  const std::string& backward_at = summary.memory.backward_peak_at;
  return {"Measured forward peak (MB): " + megabytes(m.peak_forward_bytes),
          "Measured forward/backward peak (MB): " + megabytes(m.peak_bytes),
          "Saved for backward (MB): " + megabytes(m.saved_bytes),
          "Forward peak in: " + summary.memory.forward_peak_at,
          "Backward peak in: " + (backward_at.empty() ? std::string("--") : backward_at)};
}

std::string format_table(const Summary& summary, const ModuleTree& tree,
                         const SummaryOptions& options) {
  Layout layout{effective_columns(options, summary.has_input), name_width(summary, tree, options),
                static_cast<size_t>(options.col_width)};
  const std::string divider =
      std::string(layout.columns.size() * layout.col_width + layout.name_width, '=') + "\n";
  std::string out = divider + header(layout, options) + divider +
                    layer_rows(layout, summary, tree, options) + divider;
  const std::vector<std::string> lines = totals_lines(summary);
  for (size_t i = 0; i < lines.size(); ++i) {
    out += lines[i] + "\n";
    if (i == (summary.has_flops ? 5 : 3)) out += divider;  // between the mult-adds and the sizes
  }
  out += divider;
  const std::vector<std::string> measured = memory_lines(summary);
  for (const std::string& line : measured) out += line + "\n";
  return measured.empty() ? out : out + divider;
}

}  // namespace modrec
