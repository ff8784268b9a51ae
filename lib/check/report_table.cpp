#include "check/report_table.h"

#include "util/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace modrec {

const EnumNames<ReportFormat>& report_format_names() {
  static const EnumNames<ReportFormat> names{{"table", ReportFormat::table},
                                             {"json", ReportFormat::json},
                                             {"markdown", ReportFormat::markdown}};
  return names;
}
namespace {

std::vector<size_t> column_widths(const ReportTable& t) {
  std::vector<size_t> widths;
  for (const auto& h : t.header) widths.push_back(h.size());
  for (const auto& row : t.rows)
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], row[i].size());
  return widths;
}

std::string text_line(const std::vector<std::string>& cells, const std::vector<size_t>& widths) {
  std::string line;
  for (size_t i = 0; i < cells.size(); ++i) {
    line += cells[i];
    if (i + 1 < cells.size()) line += std::string(widths[i] - cells[i].size() + 2, ' ');
  }
  return line + "\n";
}

std::string markdown_line(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const auto& cell : cells) {
    std::string escaped;
    for (char c : cell) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
    line += " " + escaped + " |";
  }
  return line + "\n";
}

}  // namespace

std::string format_text(const ReportTable& table) {
  const auto widths = column_widths(table);
  std::vector<std::string> rule;
  for (size_t w : widths) rule.push_back(std::string(w, '-'));
  std::string out = text_line(table.header, widths) + text_line(rule, widths);
  for (const auto& row : table.rows) out += text_line(row, widths);
  return out;
}

std::string format_markdown(const ReportTable& table) {
  std::string out = markdown_line(table.header);
  out += markdown_line(std::vector<std::string>(table.header.size(), "---"));
  for (const auto& row : table.rows) out += markdown_line(row);
  return out;
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", value);
  return buf;
}

std::string format_shape(const std::vector<int64_t>& shape) {
  const std::string s = shape_text(shape);
  return s.empty() ? "scalar" : s;
}

}  // namespace modrec
