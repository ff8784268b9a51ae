#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "jobs/diff_job.h"

namespace modrec::cli {

Command add_diff(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "diff",
      "compare two recordings (or two models on one input) call by call; name the first call "
      "whose output diverges (exit 1 on a difference beyond tolerance)");
  cmd->footer(
      "Examples:\n"
      "  modrec diff run-new run-baseline\n"
      "  modrec diff run-new run-baseline --atol 1e-6 --rtol 1e-4 --layers type:Conv2d\n"
      "  modrec diff run-new run-baseline --rule either --check-error-stat p99 --fail-fast\n"
      "  modrec diff exported.pt original.pt --input x.pt --capture output\n"
      "  modrec diff float.pt2 int8.pt2 --input x.pt --capture output   # .pt2 programs, a .pt "
      "and its .pt2, a program and its AOTInductor package\n"
      "  modrec diff net.pt2 net.pte --etrecord etrecord.bin --input x.pt   # call by call\n"
      "  modrec diff finetuned.safetensors base.safetensors --atol 1e-3   # two checkpoints\n"
      "  modrec diff run-new run-baseline --format markdown >> $GITHUB_STEP_SUMMARY");
  auto job = std::make_shared<DiffJob>();
  auto model = std::make_shared<ModelFlags>();
  cmd->add_option("RUN_A", job->run_a,
                  "a directory written by modrec record, a model with --input (TorchScript .pt, "
                  "torch.export .pt2, an AOTInductor package), or a checkpoint (.safetensors, its "
                  "index, a torch.save'd state_dict)")
      ->required()
      ->type_name("PATH");
  cmd->add_option("RUN_B", job->run_b,
                  "the reference recording (or model): --rtol scales its values")
      ->required()
      ->type_name("PATH");
  add_number(*cmd, "--atol", job->tol.atol, 0.0, kMaxReal,
             "absolute tolerance (default 1e-8, as torch.allclose)");
  add_number(*cmd, "--rtol", job->tol.rtol, 0.0, kMaxReal,
             "relative tolerance (default 1e-5, as torch.allclose)");
  add_enum_option(*cmd, "--rule", job->tol.rule, error_rule_names(),
                  "allclose (|a-b| <= atol + rtol*|b|, default) or either (an element fails only "
                  "beyond atol and beyond rtol, as Polygraphy)");
  add_enum_option(*cmd, "--check-error-stat", job->tol.stat, error_stat_names(),
                  "elemwise (default), max, mean, median or p99: which statistic of the error "
                  "meets the tolerance");
  add_number(*cmd, "--memory-rtol", job->tol.memory_rtol, 0.0, kMaxReal,
             "runs recorded with --columns saved_bytes,peak_bytes: a layer's measured memory "
             "differs beyond this fraction of RUN_B's (default 0.1)");
  cmd->add_flag("--fail-fast", job->fail_fast,
                "stop at the first call, in the order calls return, whose output differs");
  add_scope_flags(*cmd, job->scope);
  add_enum_option(*cmd, "--format", job->format, report_format_names(),
                  "table, json or markdown (default table)");
  add_input_flags(*cmd, job->inputs);
  add_mode_flag(*cmd, model->mode, "with --input");
  add_format_flags(*cmd, model->formats);
  add_enum_option(*cmd, "--save", job->save, save_format_names(),
                  "with --input: compare pt or npy tensors (default pt), or none (statistics)");
  return {cmd, [job, model] {
            model->positional = job->run_a;  // only to resolve --mode and --threads
            model->resolve(job->model);
            return run_diff_job(*job, std::cout);
          }};
}

}  // namespace modrec::cli
