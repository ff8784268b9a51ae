#include "commands.h"
#include "jobs/merge_job.h"
#include "util/log.h"

namespace modrec::cli {

Command add_merge(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "merge", "put the shard runs of one recording (record --shard K/N) together into one run");
  cmd->footer(
      "Examples:\n"
      "  modrec merge shards/0 shards/1 shards/2 shards/3 --out run\n"
      "  modrec merge shards/* --out run --force");
  auto job = std::make_shared<MergeJob>();
  cmd->add_option("RUN", job->runs, "every shard's run directory, in any order")
      ->required()
      ->type_name("DIR");
  cmd->add_option("--out", job->out, "the merged run directory")->required()->type_name("DIR");
  cmd->add_flag("--force", job->force, "replace an existing output directory once complete");
  return {cmd, [job] {
            run_merge_job(*job);
            log::info("merged ", job->runs.size(), " runs into ", job->out);
            return 0;
          }};
}

}  // namespace modrec::cli
