#include "jobs/check_job.h"

#include <set>
#include <sstream>

#include "check/check_report.h"
#include "checkpoint/tensor_stats.h"
#include "jobs/subject.h"
#include "rundir/run_dir.h"
#include "util/error.h"
#include "util/scratch_dir.h"

namespace modrec {

namespace {

CheckResult check_model(const CheckJob& job) {
  ScratchDir scratch("modrec-check");
  RecordJob record = job.record;
  record.model.path = job.run_dir;
  record.record.narrow_to(job.scope);
  record.record.save = SaveFormat::none;
  record.out = (scratch.path / "run").string();
  std::ostringstream ignored;
  run_record_job(record, ignored);
  return check_run(read_run_dir(record.out), job.rules, job.scope);
}

// A tensor subclass's quantization parameters (its inner tensors but qdata: torchao's zero_point,
// all zero under symmetric quantization) are no trained weight: the dead and constant rules that
// are on by default for checkpoints do not hold them.
void drop_default_rules_on_qparams(const Checkpoint& checkpoint, const CheckRules& given,
                                   CheckResult& result) {
  std::set<std::string> subclasses;
  for (const CheckpointSubclass& s : checkpoint.subclasses) subclasses.insert(s.name);
  std::erase_if(result.violations, [&](const Violation& v) {
    const bool defaulted =
        (v.rule == "no-dead" && !given.no_dead) || (v.rule == "no-constant" && !given.no_constant);
    return defaulted && subclasses.count(v.layer.path) && v.element != "param.qdata";
  });
}

// Every tensor's statistics against the rules; dead and constant tensors fail unless allowed.
CheckResult check_checkpoint(const CheckJob& job, const FileInfo& file) {
  if (job.record.inputs.given())
    throw Error(Exit::usage, "a checkpoint has no forward to run on an input", "--input",
                "check CHECKPOINT checks its tensors' values; drop --input and --input-size");
  const Checkpoint checkpoint = read_checkpoint(job.run_dir, file);
  CheckRules rules = job.rules;
  rules.no_dead = rules.no_dead.value_or(true);
  rules.no_constant = rules.no_constant.value_or(true);
  const RunDir run =
      as_run(checkpoint, summarize(checkpoint), tensor_stats(checkpoint, job.record.model.threads));
  CheckResult result = check_run(run, rules, job.scope);
  drop_default_rules_on_qparams(checkpoint, job.rules, result);
  result.tensors_held = checkpoint.held;
  return result;
}

}  // namespace

int run_check_job(const CheckJob& job, std::ostream& out) {
  const Subject subject = subject_of(job.run_dir);
  const CheckResult result =
      subject.kind == Subject::checkpoint ? check_checkpoint(job, subject.file)
      : subject.kind == Subject::model    ? check_model(job)
                                       : check_run(read_run_dir(job.run_dir), job.rules, job.scope);
  out << format_check(result, job.run_dir, job.format);
  return static_cast<int>(result.violations.empty() ? Exit::ok : Exit::check_failed);
}

}  // namespace modrec
