#include "jobs/diff_job.h"

#include <sstream>

#include "diff/diff_report.h"
#include "diff/run_diff.h"
#include "jobs/record_job.h"
#include "util/error.h"
#include "util/scratch_dir.h"

namespace modrec {
namespace {

void validate(const Tolerance& tol) {
  if (!(tol.atol >= 0))
    throw Error(Exit::usage, "negative tolerance", "--atol", "give a value >= 0");
  if (!(tol.rtol >= 0))
    throw Error(Exit::usage, "negative tolerance", "--rtol", "give a value >= 0");
}

// The recording of one model on the job's inputs, into `dir`: the layers and captures diff
// compares (record's default captures when none are named).
std::string record_model(const DiffJob& job, const std::string& model, const std::string& dir) {
  RecordJob r;
  r.model = job.model;
  r.model.path = model;
  r.inputs = job.inputs;
  r.inputs.in_model_dtype = true;  // one input through a float32 model and its bfloat16 copy
  r.record.layers = job.scope.layers;
  if (!job.scope.captures.empty()) {
    r.record.captures = CaptureSet::parse(job.scope.captures, "--captures");
    // No backward when no gradient is compared: a model whose output needs none (a statically
    // quantized one) diffs on its forward alone.
    r.record.backward = r.record.captures->any_grad();
  }
  r.record.save = job.save;
  r.out = dir;
  std::ostringstream quiet;  // record's own report is not diff's
  run_record_job(r, quiet);
  return dir;
}

int diff_dirs(const DiffJob& job, const std::string& dir_a, const std::string& dir_b,
              std::ostream& out) {
  const RunDiff diff =
      diff_runs(read_run_dir(dir_a), read_run_dir(dir_b), job.tol, job.scope, job.fail_fast);
  out << format_diff(diff, {job.run_a, job.run_b, job.tol}, job.format);
  return static_cast<int>(diff.passed() ? Exit::ok : Exit::check_failed);
}

}  // namespace

int run_diff_job(const DiffJob& job, std::ostream& out) {
  validate(job.tol);
  if (!job.inputs.given()) return diff_dirs(job, job.run_a, job.run_b, out);
  const ScratchDir scratch("modrec-diff");
  return diff_dirs(job, record_model(job, job.run_a, (scratch.path / "a").string()),
                   record_model(job, job.run_b, (scratch.path / "b").string()), out);
}

}  // namespace modrec
