#include "jobs/watch_job.h"

#include "jobs/run_outputs.h"
#include "jobs/session.h"
#include "rundir/run_paths.h"
#include "train/step_series.h"
#include "train/training.h"
#include "train/watch_manifest.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/regular_file.h"

namespace modrec {
WatchOutcome run_watch_job(const WatchJob& job) {
  job.train.validate();
  job.record.validate();
  if (job.inputs.all_files().empty())
    throw Error(Exit::usage, "watch needs training data", "--input", "give --input FILE");
  std::vector<FlagPath> read = paths_read(job.model, job.inputs, job.record);
  read.push_back({job.train.targets_file, "--targets"});
  refuse_output_over_inputs({job.save_model, "--save-model"}, read);
  if (!job.save_model.empty()) require_file_output(job.save_model);
  RunOutputs outputs(job.out, job.force, job.tensorboard, read);
  InterruptGuard interrupts;
  ModelOptions model = job.model;
  model.mode = Mode::train;
  Session session = open_session(
      model, job.inputs, {job.record.resolved_captures().grad_input, !job.save_model.empty()});
  // The shard's samples, whole: steps draw their batches from them in any order (--shuffle).
  const InputBatches sources = session.batches(job.inputs, 0, job.train.targets_file);
  const InputBatch data = sources.get(0);
  const at::Tensor targets =
      data.targets.defined() ? data.targets.to(session.device) : at::Tensor();
  StepBatches batches(data.inputs, targets, job.train.batch_size, job.train.shuffle);
  TrainOptions train = job.train;
  if (train.steps == 0) train.steps = batches.steps_per_pass();
  StepSeries series(outputs.dir(), outputs.events());
  Training training(*session.model, job.record, train, outputs.dir());
  const auto stopped = training.run(batches, series, job.progress);
  write_run_manifest(outputs.dir(), watch_manifest({model, job.inputs, sources, job.record, train,
                                                    training, stopped}));
  if (!stopped && !job.save_model.empty()) session.model->save(job.save_model);
  outputs.commit();
  return {train.steps, stopped};
}

}  // namespace modrec
