#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "jobs/check_job.h"

namespace modrec::cli {

Command add_check(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "check", "check a recording's statistics against rules (exit 1 on a violation)");
  cmd->footer(
      "Examples:\n"
      "  modrec check modrec-out\n"
      "  modrec check model.pt --input x.pt --layers all --max-abs 1e4\n"
      "  modrec check model.pt2 --input x.pt --layers all --max-abs 1e4   # a .pt2 archive\n"
      "  modrec check model.safetensors --max-abs 100       # a checkpoint's tensors\n"
      "  modrec check model.pt --input x.pt --arg mode=max --max-abs 1e4\n"
      "  modrec check model.pt --input x.pt --edit layer2=scale:100 --max-abs 1e4\n"
      "  modrec check modrec-out --max-abs 1e4 --min-std 1e-6 --capture grad_output\n"
      "  modrec check modrec-out --layers type:ReLU --max-zero-fraction 0.9 --format markdown "
      ">> $GITHUB_STEP_SUMMARY");
  auto job = std::make_shared<CheckJob>();
  auto& r = job->rules;
  cmd->add_option("RUN_DIR", job->run_dir,
                  "a directory written by modrec record; or a model (TorchScript or .pt2), "
                  "recorded first (statistics only) with --input/--input-size; or a checkpoint "
                  "(.safetensors, its index, a torch.save'd state_dict): its tensors' values")
      ->required()
      ->type_name("PATH");
  add_input_flags(*cmd, job->record.inputs);
  add_shard_flag(*cmd, job->record.inputs);
  add_number(*cmd, "--batch-size", job->record.record.batch_size, int64_t{1}, kMaxCount,
             "when RUN_DIR is a model: split the input along dim 0 and stream it");
  add_edit_flag(*cmd, job->record.record.edits, job->record.inputs);
  add_mode_flag(*cmd, job->record.model.mode, "when RUN_DIR is a model");
  add_load_library_flag(*cmd, job->record.model.libraries);
  cmd->add_flag("--no-nan,!--allow-nan", r.no_nan, "a NaN value is a violation (default on)");
  cmd->add_flag("--no-inf,!--allow-inf", r.no_inf, "a +/-Inf value is a violation (default on)");
  add_number(*cmd, "--max-abs", r.max_abs, 0.0, kMaxReal, "violation when abs_max > X");
  add_number(*cmd, "--max-std", r.max_std, 0.0, kMaxReal, "violation when std > X");
  add_number(*cmd, "--min-std", r.min_std, 0.0, kMaxReal, "violation when std < X (a dead layer)");
  add_number(*cmd, "--max-zero-fraction", r.max_zero_fraction, 0.0, 1.0,
             "violation when the fraction of zeros > F (dead ReLUs)");
  add_optional_switch(*cmd, "--no-dead", "--allow-dead", r.no_dead,
                      "a tensor of zeros only is a violation (default on for checkpoints)");
  add_optional_switch(*cmd, "--no-constant", "--allow-constant", r.no_constant,
                      "a tensor of one nonzero value only is a violation (default on for "
                      "checkpoints)");
  add_scope_flags(*cmd, job->scope);
  add_enum_option(*cmd, "--format", job->format, report_format_names(),
                  "table, json or markdown (default table)");
  return {cmd, [job] {
            job->record.model.threads = threads_flag();
            job->record.model.libraries = load_libraries(job->record.model.libraries);
            return run_check_job(*job, std::cout);
          }};
}

}  // namespace modrec::cli
