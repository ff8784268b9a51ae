#include "check/check_report.h"

#include "check/report_table.h"
#include "util/text.h"
#include "util/error.h"

namespace modrec {
namespace {
using nlohmann::json;

std::string verdict(const CheckResult& r, const std::string& run_path) {
  const std::string scope =
      std::to_string(r.tensors_checked) + " tensors of " + std::to_string(r.layers_checked) +
      " layers in " + run_path +
      (r.tensors_held ? " (of the " + std::to_string(*r.tensors_held) + " tensors it holds)" : "");
  if (r.violations.empty()) return "check passed: no violations in " + scope;
  const size_t n = r.violations.size();
  return "check failed: " + std::to_string(n) + (n == 1 ? " violation in " : " violations in ") +
         scope;
}

ReportTable violations_table(const CheckResult& r) {
  ReportTable t{{"label", "path", "tensor", "rule", "value", "limit"}, {}};
  for (const Violation& v : r.violations)
    t.rows.push_back({v.layer.label, v.layer.path, v.element, v.rule, format_number(v.value),
                      format_number(v.limit)});
  return t;
}

// Gradients the run could not record, a line each (`bullet`: as markdown list items).
std::string not_recorded_lines(const CheckResult& r, bool bullet) {
  std::string out;
  for (const NotRecorded& n : r.not_recorded)
    out += std::string(bullet ? "- " : "") + "not recorded: " + n.layer.label + " " + n.layer.path +
           " " + n.element + ": " + n.refused.why() + "\n";
  return out;
}

}  // namespace

json check_json(const CheckResult& result, const std::string& run_path) {
  json violations = json::array();
  for (const Violation& v : result.violations)
    violations.push_back({{"label", v.layer.label},
                          {"path", v.layer.path},
                          {"capture", v.capture},
                          {"tensor", v.tensor},
                          {"element", v.element},
                          {"rule", v.rule},
                          {"value", v.value},
                          {"limit", v.limit}});
  json not_recorded = json::array();
  for (const NotRecorded& n : result.not_recorded) {
    not_recorded.push_back({{"label", n.layer.label},
                            {"path", n.layer.path},
                            {"element", n.element},
                            {"through", n.refused.through}});
    if (!n.refused.reason.empty()) not_recorded.back()["reason"] = n.refused.reason;
  }
  json out = {{"run", run_path},
              {"passed", result.violations.empty()},
              {"not_recorded", not_recorded},
              {"layers_checked", result.layers_checked},
              {"tensors_checked", result.tensors_checked},
              {"violations", violations}};
  if (result.tensors_held) out["tensors_held"] = *result.tensors_held;
  return out;
}

std::string format_check(const CheckResult& result, const std::string& run_path,
                         ReportFormat format) {
  const bool any = !result.violations.empty();
  switch (format) {
    case ReportFormat::table:
      return verdict(result, run_path) + "\n" + (any ? format_text(violations_table(result)) : "") +
             not_recorded_lines(result, false);
    case ReportFormat::markdown:
      return "### modrec " + verdict(result, run_path) + "\n\n" +
             (any ? format_markdown(violations_table(result)) : "") +
             not_recorded_lines(result, true);
    case ReportFormat::json:
      break;
  }
  return check_json(result, run_path).dump(2) + "\n";
}

}  // namespace modrec
