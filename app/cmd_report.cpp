#include "commands.h"
#include "jobs/report_job.h"
#include "util/log.h"

namespace modrec::cli {

Command add_report(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "report", "one self-contained HTML page of a record, check or watch run (two side by side)");
  cmd->footer(
      "Examples:\n"
      "  modrec report run --out report.html\n"
      "  modrec report run-a run-b --out side-by-side.html\n"
      "  modrec report run --out report.html --force   # replace the page");
  auto job = std::make_shared<ReportJob>();
  cmd->add_option("RUN_DIR", job->runs, "one run directory, or two to compare")
      ->required()
      ->expected(1, 2)
      ->type_name("DIR");
  cmd->add_option("--out", job->out, "the HTML file to write (default report.html)")
      ->type_name("FILE");
  cmd->add_flag("--force", job->force, "replace an existing --out file");
  return {cmd, [job] {
            run_report_job(*job);
            log::info("wrote ", job->out);
            return 0;
          }};
}

}  // namespace modrec::cli
