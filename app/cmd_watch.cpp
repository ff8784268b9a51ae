#include <algorithm>

#include "cli_common.h"
#include "commands.h"
#include "jobs/watch_job.h"
#include "progress.h"
#include "util/error.h"
#include "util/log.h"

namespace modrec::cli {
namespace {

// watch's --capture: record's captures plus `update`, the step's parameter change.
void add_watch_captures(CLI::App& cmd, RecordOptions& record, TrainOptions& train) {
  std::vector<std::string> allowed = names_of(capture_names());
  allowed.push_back("update");
  cmd.add_option_function<std::vector<std::string>>(
         "--capture,--captures",
         [&record, &train](std::vector<std::string> names) {
           const auto update = std::remove(names.begin(), names.end(), "update");
           train.update = update != names.end();
           names.erase(update, names.end());
           record.captures = CaptureSet::parse(names);
         },
         "any of input,output,grad_input,grad_output,param,param_grad,update "
         "(default output,grad_output,param,param_grad,update)")
      ->delimiter(',')
      ->check(CLI::IsMember(allowed));
}

}  // namespace

Command add_watch(CLI::App& app, const bool& quiet) {
  auto* cmd = app.add_subcommand(
      "watch", "train the model with torch::optim and record layer statistics every few steps");
  cmd->footer(
      "Examples:\n"
      "  modrec watch model.pt --input x.pt --targets y.pt --loss cross_entropy --optimizer sgd "
      "\\\n"
      "      --lr 0.1 --momentum 0.9 --steps 100 --batch-size 32 --every 10 --layers all --out "
      "run\n"
      "  modrec watch model.pt --input x.pt --loss mean --batch-size 16 --out run\n"
      "      (SGD at lr 0.01, one pass over the input, every layer's statistics)\n"
      "  modrec watch model.pt2 --input x.pt --loss mean --out run   # exported in train mode\n"
      "  modrec watch model.pt --input x.pt --input mask=m.pt --arg dropout=0.1 --loss mean --out "
      "run\n"
      "  modrec watch model.pt --input x.pt --loss mean --optimizer adam --lr 1e-3 --steps 20 \\\n"
      "      --layers type:Linear --capture param,update --out run --save-model trained.pt\n"
      "  modrec watch model.pt --input x.pt --loss mean --lr 0.1 --out runs/a --tensorboard tb\n"
      "  modrec watch model.pt --input x.pt --loss mean --lr 0.01 --out runs/b --tensorboard tb\n"
      "      (TensorBoard's runs tb/a and tb/b: tensorboard --logdir tb shows them side by side)");
  auto job = std::make_shared<WatchJob>();
  auto model = std::make_shared<ModelFlags>();
  model->add(*cmd, job->inputs);
  add_shard_flag(*cmd, job->inputs);
  RecordOptions& r = job->record;
  TrainOptions& t = job->train;
  r.save = SaveFormat::none;
  r.captures = CaptureSet::parse({"output", "grad_output", "param", "param_grad"});
  t.update = true;
  add_layers_flag(*cmd, r.layers, false);
  add_watch_captures(*cmd, r, t);
  add_enum_option(*cmd, "--loss", t.loss, train_loss_names(),
                  "cross_entropy or mse (against --targets), sum or mean of the first output")
      ->required();
  cmd->add_option("--targets", t.targets_file, "a tensor file of one target per input sample")
      ->type_name("FILE");
  add_enum_option(*cmd, "--optimizer", t.optimizer, optimizer_names(), "sgd or adam (default sgd)");
  add_number(*cmd, "--lr", t.lr, 0.0, kMaxFloat, "learning rate, > 0 (default 0.01)");
  add_number(*cmd, "--momentum", t.momentum, 0.0, 1.0, "SGD momentum (default 0)");
  add_number(*cmd, "--weight-decay", t.weight_decay, 0.0, kMaxFloat, "L2 weight decay (default 0)");
  add_number(*cmd, "--steps", t.steps, int64_t{1}, kMaxCount,
             "optimizer steps (default: one pass over the input, batch after batch)");
  add_number(*cmd, "--batch-size", t.batch_size, int64_t{1}, kMaxCount,
             "samples per step (default: all)");
  cmd->add_option_function<uint64_t>(
      "--shuffle", [&t](uint64_t seed) { t.shuffle = seed; },
      "a new order of the samples each pass, from this seed (default: in order)");
  add_number(*cmd, "--every", t.every, int64_t{1}, kMaxCount, "record every K-th step (default 1)");
  cmd->add_option("--out", job->out, "output directory (default modrec-watch)")->type_name("DIR");
  cmd->add_flag("--force", job->force,
                "replace an existing output directory, and the --tensorboard run's event files, "
                "once complete");
  cmd->add_option(
         "--save-model", job->save_model,
         "write the trained model (torch.jit.load reads it; TorchScript models only, not a .pt2)")
      ->type_name("FILE");
  add_tensorboard_flags(*cmd, job->tensorboard,
                        "step by step: the loss, and each recorded capture's std, abs_max, mean, "
                        "non-finite count (update_ratio) and histogram");
  return {cmd, [job, model, &quiet] {
            model->resolve(job->model);
            job->progress = progress_bar("training", "steps");
            const auto [steps, stopped] = run_watch_job(*job);
            if (!stopped) {
              log::info("trained ", steps, " steps, recorded into ", job->out);
              suggest_viewers(quiet, job->out, job->tensorboard);
              return 0;
            }
            const std::string where = stopped->label.empty()
                                          ? "every output was finite: the loss itself"
                                          : "layer " + stopped->label + " " + stopped->path +
                                                " produced the first non-finite value";
            log::error("step ", stopped->step, ": the loss is not finite; ", where,
                       ". Steps before it are in ", job->out);
            return static_cast<int>(Exit::check_failed);
          }};
}

}  // namespace modrec::cli
