// The plain-text and GitHub-markdown tables that check and diff print (torch-free).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "util/enum_names.h"

namespace modrec {

enum class ReportFormat { table, json, markdown };  // check and diff --format
const EnumNames<ReportFormat>& report_format_names();

struct ReportTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // each as wide as the header
};

// Columns left-aligned, padded to their widest cell, two spaces apart; a dashed rule under the
// header.
std::string format_text(const ReportTable& table);
// A GitHub markdown table; '|' in cells is escaped.
std::string format_markdown(const ReportTable& table);

// %.6g; "nan", "inf", "-inf" for those.
std::string format_number(double value);
// "2x64x16x16" as in stats.csv; "scalar" for [].
std::string format_shape(const std::vector<int64_t>& shape);

}  // namespace modrec
