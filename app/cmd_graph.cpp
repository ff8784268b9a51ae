#include <iostream>

#include "cli_common.h"
#include "commands.h"
#include "jobs/graph_job.h"

namespace modrec::cli {

Command add_graph(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "graph", "module calls as nodes, the tensors flowing between them as edges (Graphviz)");
  cmd->footer(
      "Examples:\n"
      "  modrec graph model.pt --input-size 1x3x224x224 --depth 2 --format svg > model.svg\n"
      "  modrec graph model.pt --input x.pt --params | dot -Tpng -o model.png\n"
      "  modrec graph model.pt --input x.pt --format json | jq -c '.edges[]'\n"
      "  modrec graph model.pt2 --input x.pt --depth 2     # a torch.export archive\n"
      "  modrec graph model.pt --input x.pt --arg num_steps=4 --arg size=[2,3]\n"
      "Without an input: the static call structure, its calls chained in static order (dashed).");
  auto job = std::make_shared<GraphJob>();
  auto model = std::make_shared<ModelFlags>();
  model->add(*cmd, job->inputs);
  add_number(*cmd, "--depth", job->depth, 0, 1000,
             "deepest nesting drawn; deeper calls are drawn as their ancestor (default 3)");
  cmd->add_flag("--params", job->params, "parameter counts in the labels");
  add_enum_option(*cmd, "--format", job->format, graph_format_names(),
                  "dot, svg (by Graphviz's dot) or json (default dot)");
  return {cmd, [job, model] {
            model->resolve(job->model);
            run_graph_job(*job, std::cout);
            return 0;
          }};
}

}  // namespace modrec::cli
