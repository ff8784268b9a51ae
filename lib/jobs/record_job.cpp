#include "jobs/record_job.h"

#include <optional>

#include "jobs/session.h"
#include "record/recording.h"
#include "record/pass/tensor_stats.h"
#include "util/atomic_dir.h"
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
  const std::vector<FlagPath> read = paths_read(job.model, job.inputs, job.record);
  refuse_output_over_inputs({job.out, "--out"}, read);
  refuse_output_over_inputs({job.tensorboard, "--tensorboard"}, read);
  refuse_outputs_together({job.tensorboard, "--tensorboard"}, {job.out, "--out"});
  AtomicDir dir(job.out, job.force);  // refuses an existing --out before any work
  InterruptGuard interrupts;
  Stopwatch clock;
  const bool grad_input = job.record.resolved_captures().grad_input;
  Session session = open_session(job.model, job.inputs, {grad_input});
  log::debug("timing: load ", log::seconds(clock.lap()), " s");
  log::debug("statistics on ", statistics_threads(), " threads");
  const InputBatches batches =
      session.batches(job.inputs, job.record.batch_size, job.record.targets_file);
  Recording recording(*session.model, job.record, dir.path());
  std::optional<EventFile> events;
  if (!job.tensorboard.empty()) recording.write_events_to(&events.emplace(job.tensorboard));
  recording.run(batches, job.progress);
  clock.lap();
  const std::string manifest = recording.write(job.model, job.inputs, batches);
  if (job.format == RecordFormat::json) out << manifest;
  dir.commit();
  log::debug("timing: write ", log::seconds(clock.lap()), " s");
}

}  // namespace modrec
