// `modrec diff`: two recording directories compared within a tolerance.
#pragma once
#include <ostream>
#include <string>

#include "check/report_table.h"
#include "check/run_dir.h"
#include "check/value_diff.h"

namespace modrec {

struct DiffJob {
  std::string run_a, run_b;  // RUN_B is the reference: rtol scales |b|
  Tolerance tol;
  RunScope scope;
  ReportFormat format = ReportFormat::table;
};

// Prints the report on `out`; returns the exit code: 1 (Exit::check_failed) when a tensor differs
// beyond tolerance or in shape, else 0. Throws Error: usage (selector, capture, negative
// tolerance), bad_input (run directory, tensor file).
int run_diff_job(const DiffJob& job, std::ostream& out);

}  // namespace modrec
