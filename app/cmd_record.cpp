#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "jobs/record_job.h"
#include "progress.h"
#include "util/log.h"

namespace modrec::cli {

Command add_record(CLI::App& app, const bool& quiet) {
  auto* cmd = app.add_subcommand(
      "record", "run forward and backward, and write the chosen layers' tensors and statistics");
  cmd->footer(
      "Examples:\n"
      "  modrec record model.pt --input x.pt --layers 1-3 --out run\n"
      "  modrec record model.pt2 --input x.pt --layers all --out run   # a torch.export archive\n"
      "  modrec record model.pt --input-size 8x3x224x224 --layers type:Conv2d --save none\n"
      "  modrec record model.pt --input x.pt --layers all --capture input,output,grad_input \\\n"
      "      --batch-size 4 --save npy --out run --force\n"
      "  modrec record model.pt --input x.pt --layers all --capture param,param_grad --out run\n"
      "  modrec record model.pt --input x.pt --layers all --edit 2-3=zero --out ablated\n"
      "  modrec record model.pt --input x.pt --batch-size 8 --layers all --when nonfinite --out "
      "nan\n"
      "  modrec record model.pt --input x.pt --batch-size 8 --layers all --out runs/a \\\n"
      "      --tensorboard tb   (TensorBoard's run tb/a; --tensorboard-run NAME names it)\n"
      "  modrec record model.pt --input x.pt --input mask=m.pt --arg mode=max --layers all "
      "--out run");
  auto job = std::make_shared<RecordJob>();
  auto model = std::make_shared<ModelFlags>();
  model->add(*cmd, job->inputs);
  add_shard_flag(*cmd, job->inputs);
  RecordOptions& r = job->record;
  add_layers_flag(*cmd, r.layers, true);
  add_capture_flag(
      *cmd, r.captures,
      "any of input,output,grad_input,grad_output,param,param_grad (default output,grad_output)");
  add_enum_option(*cmd, "--loss", r.loss, loss_names(),
                  "sum or mean of the first output (default sum)");
  cmd->add_option("--grad", r.grad_file, "tensor file used as d(loss)/d(first output)")
      ->type_name("FILE");
  cmd->add_flag("!--no-backward", r.backward, "forward only");
  add_enum_option(*cmd, "--save", r.save, save_format_names(),
                  "pt, npy or none (statistics only); default pt");
  add_edit_flag(*cmd, r.edits, job->inputs);
  cmd->add_option_function<std::string>(
         "--when", [&r](const std::string& text) { r.when = When::parse(text); },
         "which batches or samples to keep: batch:2,5-7, target:K (with --targets) or nonfinite")
      ->check(parsed_by(When::parse));
  cmd->add_option("--targets", r.targets_file,
                  "a tensor file of one label per input sample, for --when target:K")
      ->type_name("FILE");
  add_number(*cmd, "--batch-size", r.batch_size, int64_t{1}, kMaxCount,
             "split the input along dim 0 and stream it");
  add_enum_option(*cmd, "--reduce", r.reduce, reduce_names(),
                  "none, sum or mean over samples (default none)");
  cmd->add_option("--out", job->out, "output directory (default modrec-out)")->type_name("DIR");
  cmd->add_flag("--force", job->force,
                "replace an existing output directory, and the --tensorboard run's event files, "
                "once complete");
  add_tensorboard_flags(*cmd, job->tensorboard,
                        "batch by batch: each recorded capture's std, abs_max, mean, non-finite "
                        "count and histogram");
  add_parsed_list(
      *cmd, "--columns", r.columns, parse_column,
      "saved_bytes,peak_bytes: each recorded layer's memory, measured (docs/memory.md)");
  add_enum_option(*cmd, "--format", job->format, record_format_names(),
                  "text or json (json prints the manifest to stdout)");
  return {cmd, [job, model, &quiet] {
            model->resolve(job->model);
            job->progress = progress_bar("recording", "batches");
            run_record_job(*job, std::cout);
            log::info("recorded into ", job->out);
            suggest_viewers(quiet, job->out, job->tensorboard);
            return 0;
          }};
}

}  // namespace modrec::cli
