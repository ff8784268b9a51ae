#include "stats/stats_csv.h"

#include <cmath>
#include <cstdio>

namespace modrec {

namespace {
std::string cell(int64_t v) { return std::to_string(v); }

std::string cell(double v) {
  if (std::isnan(v)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

struct Column {
  const char* name;
  std::string (*format)(const RunningStats&);
};

// One table so that the header and the cells cannot drift apart.
const Column kColumns[] = {
    {"count", [](const RunningStats& s) { return cell(s.count()); }},
    {"finite_count", [](const RunningStats& s) { return cell(s.finite_count()); }},
    {"mean", [](const RunningStats& s) { return cell(s.mean()); }},
    {"std", [](const RunningStats& s) { return cell(s.std()); }},
    {"min", [](const RunningStats& s) { return cell(s.min()); }},
    {"max", [](const RunningStats& s) { return cell(s.max()); }},
    {"abs_max", [](const RunningStats& s) { return cell(s.abs_max()); }},
    {"l2_norm", [](const RunningStats& s) { return cell(s.l2_norm()); }},
    {"zero_fraction", [](const RunningStats& s) { return cell(s.zero_fraction()); }},
    {"nan_count", [](const RunningStats& s) { return cell(s.nan_count()); }},
    {"inf_count", [](const RunningStats& s) { return cell(s.inf_count()); }},
};
}  // namespace

std::vector<std::string> stats_csv_header() {
  std::vector<std::string> out;
  for (const Column& c : kColumns) out.emplace_back(c.name);
  return out;
}

std::vector<std::string> stats_csv_cells(const RunningStats& s) {
  std::vector<std::string> out;
  for (const Column& c : kColumns) out.push_back(c.format(s));
  return out;
}

}  // namespace modrec
