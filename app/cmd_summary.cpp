#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "jobs/summary_job.h"

namespace modrec::cli {

Command add_summary(CLI::App& app) {
  auto* cmd = app.add_subcommand("summary",
                                 "torchinfo's layer table for a TorchScript model or .pt2 archive; "
                                 "a checkpoint's tensors by module");
  cmd->footer(
      "Examples:\n"
      "  modrec summary model.pt --input-size 1x3x224x224\n"
      "  modrec summary model.pt --input x.pt --columns "
      "input_size,output_size,num_params,mult_adds\n"
      "  modrec summary model.pt --input-size 2x12:long --format json | jq '.rows[].label'\n"
      "  modrec summary model.pt      # without input: the table and forward's signature\n"
      "  modrec summary model.pt2 --input x.pt       # a torch.export archive\n"
      "  modrec summary model.safetensors.index.json --depth 2   # a checkpoint "
      "(docs/checkpoints.md)\n"
      "  modrec summary model.pt --input x.pt --input mask=m.pt --arg steps=4 --arg "
      "size=[2,3]");
  auto job = std::make_shared<SummaryJob>();
  auto model = std::make_shared<ModelFlags>();
  model->add(*cmd, job->inputs);
  auto& s = job->summary;
  add_number(*cmd, "--depth", s.depth, 0, 1000, "deepest nesting shown (default 3)");
  add_parsed_list(*cmd, "--columns", s.columns, parse_column,
                  "any of input_size,output_size,num_params,params_percent,kernel_size,mult_adds,"
                  "trainable,flops,saved_bytes,peak_bytes (flops: FLOPs of the executed "
                  "operators; saved_bytes, peak_bytes: memory measured, docs/memory.md; these run "
                  "forward and a backward from the sum of the first output)");
  add_parsed_list(*cmd, "--row-settings", s.row_settings, parse_row_setting,
                  "any of depth,var_names,ascii_only,hide_recursive_layers (default depth)");
  add_number(*cmd, "--col-width", s.col_width, 1, 1000, "width of each column (default 25)");
  cmd->add_flag("--params", s.verbose_params, "a row per parameter, like torchinfo's verbose=2");
  add_edit_flag(*cmd, job->edits, job->inputs);
  cmd->add_flag("--grad", job->grad, "run the pass with autograd on (the calls record sees)");
  add_enum_option(*cmd, "--format", job->format, summary_format_names(),
                  "table, json, csv or markdown (default table)");
  return {cmd, [job, model] {
            model->resolve(job->model);
            run_summary_job(*job, std::cout);
            return 0;
          }};
}

}  // namespace modrec::cli
