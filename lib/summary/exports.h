// Machine-readable and markdown forms of the summary (torch-free).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "model/module_tree.h"
#include "summary/options.h"
#include "summary/summary.h"
#include "util/enum_names.h"

namespace modrec {

enum class SummaryFormat { table, json, csv, markdown };  // summary --format
const EnumNames<SummaryFormat>& summary_format_names();

// Every row (shown or not) with all its fields, plus the totals: the stable interface for scripts.
nlohmann::json to_json(const Summary& summary, const ModuleTree& tree,
                       const SummaryOptions& options);

// A header and one line per shown row, every field; RFC 4180 quoting.
std::string format_csv(const Summary& summary, const ModuleTree& tree,
                       const SummaryOptions& options);

// A GitHub markdown table of the shown rows and columns, then a table of the totals.
std::string format_markdown(const Summary& summary, const ModuleTree& tree,
                            const SummaryOptions& options);

}  // namespace modrec
