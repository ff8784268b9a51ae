// `modrec diff`: two recording directories, or two models run on the same input, compared within
// a tolerance.
#pragma once
#include <ostream>
#include <string>

#include "check/report_table.h"
#include "rundir/run_scope.h"
#include "diff/value_diff.h"
#include "arguments/input_options.h"
#include "load/model_options.h"
#include "record/record_options.h"

namespace modrec {

struct DiffJob {
  std::string run_a, run_b;  // RUN_B is the reference: rtol scales |b|; models with `inputs`
  Tolerance tol;
  RunScope scope;
  ReportFormat format = ReportFormat::table;
  bool fail_fast =
      false;  // stop at the first call (in the order calls return) whose output differs

  // With inputs given, run_a and run_b are models: each is recorded on these inputs (scope's
  // layers and captures, record.save) into a scratch directory, and those runs are diffed.
  ModelOptions model;  // path unused: run_a, run_b
  InputOptions inputs;
  SaveFormat save = SaveFormat::pt;
};

// Prints the report on `out`; returns the exit code: 1 (Exit::check_failed) when a tensor differs
// beyond tolerance or in shape, else 0. Throws Error: usage (selector, capture, negative
// tolerance), bad_input (run directory, tensor file), and record's errors for models.
int run_diff_job(const DiffJob& job, std::ostream& out);

}  // namespace modrec
