#include "jobs/diff_job.h"

#include <filesystem>
#include <sstream>

#include "checkpoint/checkpoint_diff.h"
#include "diff/diff_report.h"
#include "diff/run_diff.h"
#include "jobs/subject.h"
#include "jobs/record_job.h"
#include "util/error.h"
#include "util/log.h"
#include "util/progress.h"
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
  r.record.narrow_to(job.scope);
  r.record.save = job.save;
  r.out = dir;
  progress::Phase running("diff: running " + model);
  r.progress = [&running](int done, int total) { running.step(done, total); };
  std::ostringstream quiet;  // record's own report is not diff's
  run_record_job(r, quiet);
  return dir;
}

int compare_runs(const DiffJob& job, const RunDir& a, const RunDir& b, const RunScope& scope,
                 std::ostream& out) {
  const RunDiff diff = diff_runs(a, b, job.tol, scope, job.fail_fast);
  out << format_diff(diff, {job.run_a, job.run_b, job.tol}, job.format);
  return static_cast<int>(diff.passed() ? Exit::ok : Exit::check_failed);
}

int diff_dirs(const DiffJob& job, const std::string& dir_a, const std::string& dir_b,
              std::ostream& out) {
  return compare_runs(job, read_run_dir(dir_a), read_run_dir(dir_b), job.scope, out);
}

// The captures a model's recording holds (manifest.json's options.capture).
CaptureSet recorded_captures(const RunDir& run) {
  return CaptureSet::parse(
      run.manifest.at("options").at("capture").get<std::vector<std::string>>());
}

// Two models recorded with record's default captures, one forward only (its output has no
// gradient: a PT2E int8 program, a compiled package): the captures both hold are compared.
int diff_models(const DiffJob& job, const std::string& dir_a, const std::string& dir_b,
                std::ostream& out) {
  const RunDir a = read_run_dir(dir_a), b = read_run_dir(dir_b);
  RunScope scope = job.scope;
  const CaptureSet in_a = recorded_captures(a), in_b = recorded_captures(b);
  if (!scope.captures && in_a.any_grad() != in_b.any_grad()) {
    const bool a_forward_only = !in_a.any_grad();
    log::info(a_forward_only ? job.run_a : job.run_b,
              " was recorded forward only (its first output does not require grad): comparing "
              "the captures of the forward pass");
    scope.captures = a_forward_only ? in_a : in_b;
  }
  return compare_runs(job, a, b, scope, out);
}

// Two checkpoints, tensor by tensor under torch.allclose's rule: the flags that choose layers,
// captures or another rule have nothing to choose among.
int diff_checkpoints(const DiffJob& job, const FileInfo& a, const FileInfo& b, std::ostream& out) {
  if (job.tol.rule != ErrorRule::allclose || job.tol.stat != ErrorStat::elemwise || job.fail_fast ||
      job.scope.layers.text() != RunScope{}.layers.text() || job.scope.captures)
    throw Error(Exit::usage, "two checkpoints are compared tensor by tensor under allclose",
                "--rule, --check-error-stat, --fail-fast, --layers, --capture",
                "diff of checkpoints takes --atol, --rtol and --format");
  const CheckpointTolerance tol{job.tol.atol, job.tol.rtol};
  const CheckpointDiff diff = diff_checkpoints(
      read_checkpoint(job.run_a, a), read_checkpoint(job.run_b, b), tol, job.model.threads);
  out << format_checkpoint_diff(diff, job.run_a, job.run_b, tol, job.format);
  return static_cast<int>(diff.passed() ? Exit::ok : Exit::check_failed);
}

}  // namespace

int run_diff_job(const DiffJob& job, std::ostream& out) {
  validate(job.tol);
  const Subject a = subject_of(job.run_a), b = subject_of(job.run_b);
  const bool checkpoint_a = a.kind == Subject::checkpoint,
             checkpoint_b = b.kind == Subject::checkpoint;
  if (checkpoint_a && checkpoint_b && !job.inputs.given())
    return diff_checkpoints(job, a.file, b.file, out);
  if (checkpoint_a != checkpoint_b)
    throw Error(Exit::bad_input, "only one of the two is a checkpoint",
                checkpoint_a ? job.run_b : job.run_a,
                "diff two checkpoints, two recordings, or two models with --input");
  if (!job.inputs.given()) {
    if (a.kind == Subject::model || b.kind == Subject::model)
      throw Error(Exit::usage, "a model is recorded on an input before diff compares it",
                  a.kind == Subject::model ? job.run_a : job.run_b,
                  "give --input FILE or --input-size SHAPE, or diff two recordings");
    return diff_dirs(job, job.run_a, job.run_b, out);
  }
  const ScratchDir scratch("modrec-diff");
  return diff_models(job, record_model(job, job.run_a, (scratch.path / "a").string()),
                     record_model(job, job.run_b, (scratch.path / "b").string()), out);
}

}  // namespace modrec
