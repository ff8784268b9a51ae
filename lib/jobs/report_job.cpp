#include "jobs/report_job.h"

#include "report/html_report.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/path_overlap.h"
#include "util/regular_file.h"

namespace modrec {

void run_report_job(const ReportJob& job) {
  if (job.runs.empty() || job.runs.size() > 2)
    throw Error(Exit::usage, "report shows one run, or two side by side", "RUN_DIR",
                "give one or two run directories");
  refuse_output_over_inputs({job.out, "--out"}, flag_paths(job.runs, "RUN_DIR"));
  require_new_file_output(job.out, job.force);
  std::vector<ReportRun> runs;
  for (const auto& dir : job.runs) runs.push_back(read_report_run(dir));
  write_file_atomic(job.out, html_report(runs));
}

}  // namespace modrec
