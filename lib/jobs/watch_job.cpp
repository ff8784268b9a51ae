#include "jobs/watch_job.h"

#include "jobs/session.h"
#include "tensors/read_inputs.h"
#include "train/save_trained.h"
#include "train/step_series.h"
#include "train/training.h"
#include "train/watch_manifest.h"
#include "util/atomic_dir.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/interrupt.h"

namespace modrec {
namespace {

at::Tensor read_targets(const std::string& path) {
  if (path.empty()) return {};
  auto tensors = read_inputs(path);
  if (tensors.size() != 1)
    throw Error(Exit::bad_input, "expected one tensor of targets", path,
                "save the targets with torch.save(t, FILE), one row per input sample");
  return tensors[0];
}

}  // namespace

std::optional<TrainingStop> run_watch_job(const WatchJob& job) {
  job.train.validate();
  job.record.validate();
  if (job.inputs.files.empty())
    throw Error(Exit::usage, "watch needs training data", "--input", "give --input FILE");
  AtomicDir dir(job.out, job.force);
  InterruptGuard interrupts;
  ModelOptions model = job.model;
  model.train = true;
  Session session = open_session(model, job.inputs, {job.record.resolved_captures().grad_input});
  at::Tensor targets = read_targets(job.train.targets_file);
  if (targets.defined()) targets = targets.to(session.inputs.at(0).toTensor().device());
  StepBatches batches(session.inputs, targets, job.train.batch_size, job.train.shuffle);
  StepSeries series(dir.path());
  Training training(session.model, job.record, job.train, dir.path());
  const auto stopped = training.run(batches, series, job.progress);
  write_file_atomic(dir.path() + "/manifest.json",
                    watch_manifest_json({model, job.inputs, job.record, job.train, training,
                                         stopped})
                            .dump(2) +
                        "\n");
  if (!stopped && !job.save_model.empty())
    save_trained_model(session.model.module(), model.path, job.save_model);
  dir.commit();
  return stopped;
}

}  // namespace modrec
