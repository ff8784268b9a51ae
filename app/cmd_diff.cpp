#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "jobs/diff_job.h"

namespace modrec::cli {

Command add_diff(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "diff", "compare two recordings layer by layer (exit 1 on a difference beyond tolerance)");
  cmd->footer(
      "Examples:\n"
      "  modrec diff run-new run-baseline\n"
      "  modrec diff run-new run-baseline --atol 1e-6 --rtol 1e-4 --layers type:Conv2d\n"
      "  modrec diff run-new run-baseline --format markdown >> $GITHUB_STEP_SUMMARY");
  auto job = std::make_shared<DiffJob>();
  cmd->add_option("RUN_A", job->run_a, "a directory written by modrec record")->required();
  cmd->add_option("RUN_B", job->run_b, "the reference recording: --rtol scales its values")
      ->required();
  cmd->add_option("--atol", job->tol.atol, "absolute tolerance (default 1e-8, as torch.allclose)");
  cmd->add_option("--rtol", job->tol.rtol, "relative tolerance (default 1e-5, as torch.allclose)");
  add_scope_flags(*cmd, job->scope);
  add_enum_option(*cmd, "--format", job->format, report_format_names(),
                  "table, json or markdown (default table)");
  return {cmd, [job] { return run_diff_job(*job, std::cout); }};
}

}  // namespace modrec::cli
