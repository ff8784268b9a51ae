// `modrec check`: rules over a recording directory's statistics.
#pragma once
#include <ostream>
#include <string>

#include "check/check_rules.h"

namespace modrec {

struct CheckJob {
  std::string run_dir;
  CheckRules rules;
  RunScope scope;
  std::string format = "table";  // table|json|markdown
};

// Prints the report on `out`; returns the exit code: 1 (Exit::check_failed) when a rule is
// broken, else 0. Throws Error: usage (selector, capture, format), bad_input (run directory).
int run_check_job(const CheckJob& job, std::ostream& out);

}  // namespace modrec
