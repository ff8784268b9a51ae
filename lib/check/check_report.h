// What `modrec check` prints: a verdict line and the violations (torch-free).
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "check/check_rules.h"
#include "check/report_table.h"

namespace modrec {

// {"run", "passed", "layers_checked", "tensors_checked", a checkpoint's "tensors_held" (the
// tensors its files hold), "violations": [{label, path, capture, tensor, rule, value, limit}]}
nlohmann::json check_json(const CheckResult& result, const std::string& run_path);

// markdown is for a GitHub job summary.
std::string format_check(const CheckResult& result, const std::string& run_path,
                         ReportFormat format);

}  // namespace modrec
