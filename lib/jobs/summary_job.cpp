#include "jobs/summary_job.h"

#include <algorithm>
#include <optional>

#include "checkpoint/checkpoint_table.h"
#include "edit/editing_hooks.h"
#include "flops/op_observer.h"
#include "memory/memory_meter.h"
#include "jobs/session.h"
#include "pass/backward.h"
#include "pass/device_sync.h"
#include "pass/forward.h"
#include "summary/exports.h"
#include "summary/rows.h"
#include "summary/table.h"
#include "summary/untold_shapes.h"
#include "util/error.h"
#include "util/log.h"
#include "util/stopwatch.h"

namespace modrec {
namespace {

// Without an input the table has no shapes; the signature under it says what to pass.
void write(const Summary& summary, const ModuleTree& tree, const Signature& signature,
           const SummaryJob& job, std::ostream& out) {
  switch (job.format) {
    case SummaryFormat::table:
      out << format_table(summary, tree, job.summary);
      if (!summary.has_input)
        out << "\nForward signature: " << signature.text()
            << "\nGive tensors with --input [NAME=]FILE, other arguments with --arg NAME=VALUE.\n";
      return;
    case SummaryFormat::json: {
      nlohmann::json json = to_json(summary, tree, job.summary);
      json["signature"] = to_json(signature);
      out << json.dump(2) << "\n";
      return;
    }
    case SummaryFormat::csv:
      out << format_csv(summary, tree, job.summary);
      return;
    case SummaryFormat::markdown:
      out << format_markdown(summary, tree, job.summary);
      return;
  }
}

// The flops and memory columns: forward with autograd on, then backward from the sum of the
// first output (what FlopCounterMode's users run: `model(x).sum().backward()`), all under the
// observer and the meter that the columns ask for; a model whose output has no gradient (a PT2E
// int8 program) counts its forward alone. The meter sees the observer's and --edit's
// work as modrec's.
CallTrace traced_with_backward(Session& session, const std::vector<c10::IValue>& inputs,
                               CallHooks* edits, const SummaryOptions& options) {
  std::optional<OpObserver> observer;
  if (options.wants_flops()) observer.emplace(edits);
  CallHooks* inner = observer ? &*observer : edits;
  std::optional<MemoryMeter> meter;
  if (options.wants_memory()) meter.emplace(session.model->state_tensors(), inner);
  CallHooks& hooks = meter ? static_cast<CallHooks&>(*meter) : *observer;
  TraceCollector trace(given_by_position(session.inputs, inputs));
  {
    c10::IValue output = run_forward(*session.model, inputs, {true}, hooks, trace);
    BackwardOptions backward;
    backward.forward_only_hint = "leave the flops and memory columns out";
    if (has_gradient(output))
      run_backward(std::move(output), backward);
    else
      log::info(
          "the model's first output does not require grad: the flops and memory columns count "
          "the forward pass only");
  }
  CallTrace out = trace.take();
  if (observer) observer->add_to(out);
  if (meter) meter->add_to(out);
  return out;
}

CallTrace traced(Session& session, const std::vector<c10::IValue>& inputs, const SummaryJob& job) {
  CallEdits edits(job.edits, session.model->tree());
  EditingHooks hooks(edits);
  CallHooks* edit_hooks = edits.empty() ? nullptr : &hooks;
  CallTrace trace = job.summary.wants_flops() || job.summary.wants_memory()
                        ? traced_with_backward(session, inputs, edit_hooks, job.summary)
                        : trace_forward(*session.model, inputs, {job.grad}, edit_hooks,
                                        given_by_position(session.inputs, inputs));
  edits.check_all_matched();
  return trace;
}

// The table needs shapes, not values: the weights stay unread (meta tensors) unless --edit
// rewrites outputs with values of its own, or the flops column counts the operators a pass runs,
// which are not all the same on the meta device: on the CPU an LSTM is one kernel, which
// FlopCounterMode does not count, on the meta device matrix products, which it counts; or a
// memory column measures what the pass allocates, which the meta device does not.
Weights weights_for(const SummaryJob& job) {
  return job.edits.specs.empty() && !job.summary.wants_flops() && !job.summary.wants_memory()
             ? Weights::meta
             : Weights::read;
}

// The root was given no argument by position although it got inputs (a .pt2 of a model called
// with keyword inputs only, its notes telling): torchinfo's input_data was a dict.
bool keyword_root(const CallTrace& trace, const std::vector<c10::IValue>& inputs) {
  return !trace.calls.empty() && trace.calls[0].inputs.tensors.empty() &&
         std::ranges::any_of(inputs, [](const c10::IValue& v) { return v.isTensor(); });
}

// The pass on the session's inputs, on the meta device when the weights were not read.
CallTrace traced_pass(Session& session, const SummaryJob& job, int64_t& input_bytes) {
  return pass_on_shapes(session, job.model, [&] {
    const std::vector<c10::IValue> inputs = session.whole_inputs();
    CallTrace trace = traced(session, inputs, job);
    input_bytes = session.input_bytes(inputs, keyword_root(trace, inputs));
    wait_for_device(inputs);
    return trace;
  });
}

// A checkpoint has no forward to run: its table is its tensors' names, shapes and dtypes.
void summarize_checkpoint(const SummaryJob& job, const FileInfo& file, std::ostream& out) {
  if (job.inputs.given() || !job.edits.specs.empty() || !job.summary.columns.empty() ||
      job.summary.verbose_params || job.grad)
    throw Error(Exit::usage, "a checkpoint has no forward to run nor columns to choose",
                "--input, --input-size, --arg, --edit, --columns, --params, --grad",
                "summary CHECKPOINT takes --depth, --row-settings ascii_only and --format");
  const Checkpoint checkpoint = read_checkpoint(job.model.path, file);
  out << format_checkpoint(checkpoint, summarize(checkpoint), job.summary, job.format);
}

// A column that measures the pass runs the model, and sees only modrec's thread: a CUDA backward
// runs on the autograd engine's device threads.
// `need`, `measure`: "the flops column needs", "the flops column counts".
void check_measuring(const SummaryJob& job, const std::string& need, const std::string& measure) {
  if (!job.inputs.given())
    throw Error(Exit::usage, need + " an input to run the model on", "--columns",
                "give --input FILE or --input-size SHAPE");
  if (job.model.device != Device::cpu)
    throw Error(Exit::usage, measure + " on the CPU only", "--device", "run it with --device cpu");
}

}  // namespace

void run_summary_job(const SummaryJob& job, std::ostream& out) {
  validate(job.summary);
  FileInfo file = inspect_file(job.model.path);
  if (is_checkpoint(file.kind)) return summarize_checkpoint(job, file, out);
  if (!job.edits.specs.empty() && !job.inputs.given())
    throw Error(Exit::usage, "--edit needs an input to run the model on", "--edit",
                "give --input FILE or --input-size SHAPE");
  if (job.summary.wants_flops())
    check_measuring(job, "the flops column needs", "the flops column counts");
  if (job.summary.wants_memory())
    check_measuring(job, "the memory columns need", "the memory columns measure");
  Stopwatch clock;
  Session session = open_session(job.model, job.inputs, {}, weights_for(job), std::move(file));
  log::debug("timing: load ", log::seconds(clock.lap()), " s");
  if (session.model->tree().modules.size() == 1)
    log::warn(job.model.path,
              " has no submodules (a frozen or fully inlined model): only the root row exists");
  int64_t input_bytes = 0;
  CallTrace trace =
      job.inputs.given() ? traced_pass(session, job, input_bytes) : session.model->static_trace();
  log::debug("timing: pass ", log::seconds(clock.lap()), " s");
  const ModuleTree& tree = session.model->tree();
  warn_untold_shapes(untold_shapes(trace, tree, job.summary), job.model.path);
  if (session.file.kind == FileKind::aoti_package)
    log::warn(job.model.path,
              ": the table counts the constants the package holds; AOTInductor folds small "
              "constants (such as biases) into its compiled code, which holds them uncounted");
  write(summarize(tree, trace, input_bytes), tree, session.signature, job, out);
  log::debug("timing: format ", log::seconds(clock.lap()), " s");
}

}  // namespace modrec
