// `modrec check`: rules over a recording directory's statistics.
#pragma once
#include <ostream>
#include <string>

#include "check/check_rules.h"
#include "check/report_table.h"
#include "jobs/record_job.h"

namespace modrec {

struct CheckJob {
  std::string run_dir;  // a recording directory, or a model file to record statistics of first
  RecordJob record;     // model and input options for the latter
  CheckRules rules;
  RunScope scope;
  ReportFormat format = ReportFormat::table;
};

// When `run_dir` is a file it is taken as the model: the selected layers are recorded with
// statistics only (no tensors) into a scratch directory, which is checked and removed.
// Prints the report on `out`; returns the exit code: 1 (Exit::check_failed) when a rule is
// broken, else 0. Throws Error: usage (selector, capture), bad_input (run directory).
int run_check_job(const CheckJob& job, std::ostream& out);

}  // namespace modrec
