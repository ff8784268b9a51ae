#include "jobs/check_job.h"

#include "check/check_report.h"
#include "check/run_dir.h"
#include "util/error.h"

namespace modrec {

int run_check_job(const CheckJob& job, std::ostream& out) {
  const CheckResult result = check_run(read_run_dir(job.run_dir), job.rules, job.scope);
  out << format_check(result, job.run_dir, job.format);
  return static_cast<int>(result.violations.empty() ? Exit::ok : Exit::check_failed);
}

}  // namespace modrec
