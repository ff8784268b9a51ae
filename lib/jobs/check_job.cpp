#include "jobs/check_job.h"

#include <filesystem>
#include <sstream>

#include "check/check_report.h"
#include "rundir/run_dir.h"
#include "util/error.h"
#include "util/scratch_dir.h"

namespace modrec {

namespace {

CheckResult check_model(const CheckJob& job) {
  ScratchDir scratch("modrec-check");
  RecordJob record = job.record;
  record.model.path = job.run_dir;
  record.record.layers = job.scope.layers;
  if (!job.scope.captures.empty()) {
    record.record.captures = CaptureSet::parse(job.scope.captures);
    // As diff's: no backward when no gradient is checked (a quantized model's output has none).
    record.record.backward = record.record.captures->any_grad();
  }
  record.record.save = SaveFormat::none;
  record.out = (scratch.path / "run").string();
  std::ostringstream ignored;
  run_record_job(record, ignored);
  return check_run(read_run_dir(record.out), job.rules, job.scope);
}

}  // namespace

int run_check_job(const CheckJob& job, std::ostream& out) {
  const CheckResult result = std::filesystem::is_regular_file(job.run_dir)
                                 ? check_model(job)
                                 : check_run(read_run_dir(job.run_dir), job.rules, job.scope);
  out << format_check(result, job.run_dir, job.format);
  return static_cast<int>(result.violations.empty() ? Exit::ok : Exit::check_failed);
}

}  // namespace modrec
