#include "jobs/record_job.h"

#include "jobs/run_outputs.h"
#include "jobs/session.h"
#include "record/recording.h"
#include "tensor_stats/tensor_stats.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/stopwatch.h"

namespace modrec {

const EnumNames<RecordFormat>& record_format_names() {
  static const EnumNames<RecordFormat> names{{"text", RecordFormat::text},
                                             {"json", RecordFormat::json}};
  return names;
}

void run_record_job(const RecordJob& job, std::ostream& out) {
  job.record.validate();
  if (!job.inputs.given())
    throw Error(Exit::usage, "record needs an input", "--input",
                "give --input FILE or --input-size SHAPE");
  if (job.record.measures_memory() && job.model.device != Device::cpu)
    throw Error(Exit::usage, "the memory columns measure on the CPU only", "--device",
                "run it with --device cpu");
  const std::vector<FlagPath> read = paths_read(job.model, job.inputs, job.record);
  RunOutputs outputs(job.out, job.force, job.tensorboard, read);  // before any work
  InterruptGuard interrupts;
  Stopwatch clock;
  const bool grad_input = job.record.resolved_captures().grad_input;
  Session session = open_session(job.model, job.inputs, {grad_input});
  log::debug("timing: load ", log::seconds(clock.lap()), " s");
  log::debug("statistics on ", statistics_threads(), " threads");
  const InputBatches batches =
      session.batches(job.inputs, job.record.batch_size, job.record.targets_file);
  Recording recording(*session.model, job.record, outputs.dir());
  recording.write_events_to(outputs.events());
  recording.run(batches, job.progress);
  clock.lap();
  const std::string manifest = recording.write(job.model, job.inputs, batches);
  if (job.format == RecordFormat::json) out << manifest;
  outputs.commit();
  log::debug("timing: write ", log::seconds(clock.lap()), " s");
}

}  // namespace modrec
