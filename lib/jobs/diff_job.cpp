#include "jobs/diff_job.h"

#include "check/diff_report.h"
#include "check/run_diff.h"
#include "util/error.h"

namespace modrec {
namespace {

void validate(const Tolerance& tol) {
  if (!(tol.atol >= 0)) throw Error(Exit::usage, "negative tolerance", "--atol", "give a value >= 0");
  if (!(tol.rtol >= 0)) throw Error(Exit::usage, "negative tolerance", "--rtol", "give a value >= 0");
}

}  // namespace

int run_diff_job(const DiffJob& job, std::ostream& out) {
  validate(job.tol);
  const RunDiff diff = diff_runs(read_run_dir(job.run_a), read_run_dir(job.run_b), job.tol, job.scope);
  out << format_diff(diff, {job.run_a, job.run_b, job.tol}, job.format);
  return static_cast<int>(diff.passed() ? Exit::ok : Exit::check_failed);
}

}  // namespace modrec
