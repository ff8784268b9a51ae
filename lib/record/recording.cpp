#include "record/recording.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "memory/memory_meter.h"
#include "pass/backward.h"
#include "record/collect/batch_file.h"
#include "record/collect/call_selection.h"
#include "record/collect/no_derivative.h"
#include "record/collect/recorder.h"
#include "record/output/batch_events.h"
#include "record/output/run_files.h"
#include "pass/device_sync.h"
#include "pass/forward.h"
#include "rundir/run_paths.h"
#include "util/atomic_file.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/remove_tree.h"
#include "util/stopwatch.h"
#include "util/text.h"

namespace modrec {
// One batch's forward and backward; what it captured waits here until merged. Never moves: the
// recorder's hooks hold the selection and the batch file.
struct Recording::Collected {
  Collected(const LayerMatcher& matcher, const ModuleTree& tree) : selection(matcher, tree) {}

  TraceCollector trace;
  CallSelection selection;
  std::unique_ptr<BatchFile> file;  // when saving tensors
  std::unique_ptr<Recorder> recorder;
  BlockedParameters blocked_params;  // with param_grad: gradients to refuse

  double disk_seconds() const { return file ? file->seconds() : 0.0; }
  PassCalls calls() const { return {selection.labels(), selection.numbers(), trace.trace()}; }
};

Recording::Recording(InstrumentedModel& model, const RecordOptions& options, std::string dir,
                     Backward backward)
    : model_(model),
      options_(options),
      dir_(std::move(dir)),
      backward_(std::move(backward)),
      captures_(options.resolved_captures()),
      matcher_(options.layers),
      layers_(model.tree(), captures_, options.save, options.reduce, dir_),
      edits_(options.edits, model.tree()) {
  if (!options.grad_file.empty()) seed_ = read_gradient_seed(options.grad_file);
}

void Recording::run(const InputBatches& batches,
                    const std::function<void(int done, int total)>& progress) {
  if (seed_.defined() && batches.count() > 1)
    throw Error(Exit::usage, "--grad cannot be combined with --batch-size", "--grad",
                "record the whole input as one batch");
  if (options_.when.kind == When::Kind::target &&
      (!batches.targets() || batches.targets()->sizes().size() != 1))
    throw Error(Exit::bad_input, "expected one 1-d tensor of labels, one per input sample",
                options_.targets_file,
                "save the labels with torch.save(labels, FILE), labels.shape == (samples,)");
  Stopwatch clock;
  std::unique_ptr<Collected> last;  // kept
  for (int64_t i = 0; i < batches.count(); ++i) {
    throw_if_interrupted();
    const int64_t number = i + 1;
    if (options_.when.runs_batch(number)) record_batch(batches.get(i), number, clock, last);
    if (progress) progress(static_cast<int>(number), static_cast<int>(batches.count()));
  }
  throw_if_interrupted();
  if (!last) return;
  merge_params(*last);
  if (events_) write_module_events(*events_, kept_.back(), layers_.layers());
}

void Recording::record_batch(const InputBatch& batch, int64_t number, Stopwatch& clock,
                             std::unique_ptr<Collected>& last) {
  const at::Tensor kept_rows = target_rows(batch);
  if (kept_rows.defined() && kept_rows.numel() == 0) return;  // no sample of the target
  model_.clear_gradients();  // param_grad sums the kept batches' only
  // Kept tensors are written as they are captured: that disk time counts as the merge's.
  auto pass = run_pass(batch.inputs, number, kept_rows);
  wait_for_device(batch.inputs);
  const double written = pass->disk_seconds();
  log::debug("timing: batch ", number, " pass ", log::seconds(clock.lap() - written), " s");
  log::debug("timing: batch ", number, " disk ", log::seconds(written), " s");
  if (keeps(*pass, number)) {
    if (events_)
      write_batch_events(*events_, number, pass->recorder->captured(), pass->calls(), model_.tree(),
                         captures_);
    layers_.merge(pass->recorder->captured(), pass->calls());
    if (options_.measures_memory()) merge_memory(*pass);
    layers_.add_param_grads(model_, pass->blocked_params);
    kept_.push_back(number);
    last = std::move(pass);
  } else if (pass->file) {
    std::filesystem::remove(pass->file->path());
  }
  log::debug("timing: batch ", number, " store ", log::seconds(clock.lap() + written), " s");
}

at::Tensor Recording::target_rows(const InputBatch& batch) const {
  if (options_.when.kind != When::Kind::target) return {};
  return (batch.targets == options_.when.target).nonzero().flatten();
}

bool Recording::keeps(const Collected& pass, int64_t number) {
  if (options_.when.kind != When::Kind::nonfinite) return true;
  const auto found = first_nonfinite(pass.recorder->captured());
  if (!found) return false;
  if (!first_nonfinite_) {
    const Call& call = pass.trace.trace().calls[found->call];
    first_nonfinite_ = FirstNonFinite{number, pass.selection.labels()[found->call],
                                      model_.tree().modules[call.module].path, found->capture};
    log::warn("first NaN/Inf: batch ", number, ", layer ", first_nonfinite_->label, " ",
              first_nonfinite_->path, " (", capture_name(found->capture), ")");
  }
  return true;
}

void Recording::merge_memory(const Collected& pass) {
  const CallTrace& trace = pass.trace.trace();
  auto named = [&](int call) {
    if (call < 0) return std::string();
    return call_name(model_.tree().modules[trace.calls[call].module],
                     pass.selection.labels()[call]);
  };
  const MeasuredMemory measured{trace.memory, named(trace.memory.forward_peak_call),
                                named(trace.memory.backward_peak_call)};
  memory_ = memory_ ? largest(*memory_, measured) : measured;
}

void Recording::merge_params(const Collected& any) {
  std::unique_ptr<BatchFile> file;
  if (options_.save != SaveFormat::none)
    file = std::make_unique<BatchFile>(run_paths::spool(dir_) + "/params.raw");
  layers_.merge_params(model_, any.calls(), file.get());
}

namespace {

// The samples in a batch: dim 0 of its first tensor (--arg values are no samples).
int64_t batch_samples(const std::vector<c10::IValue>& batch) {
  for (const auto& v : batch)
    if (v.isTensor()) return v.toTensor().size(0);
  return 0;
}

}  // namespace

std::unique_ptr<Recording::Collected> Recording::run_pass(const std::vector<c10::IValue>& batch,
                                                          int64_t number, const at::Tensor& rows) {
  auto pass = std::make_unique<Collected>(matcher_, model_.tree());
  if (options_.save != SaveFormat::none)
    pass->file = std::make_unique<BatchFile>(run_paths::spool(dir_) + "/batch-" +
                                             std::to_string(number) + ".raw");
  CallSelection& selection = pass->selection;
  pass->recorder = std::make_unique<Recorder>(
      captures_, pass->file.get(),
      [&selection](int call, int module) { return selection(call, module); },
      edits_.empty() ? nullptr : &edits_);
  if (rows.defined()) pass->recorder->keep_rows(rows, batch_samples(batch));
  const bool backward = backward_ || options_.backward;
  std::optional<NoDerivativeOps> no_derivative;
  if (backward && (captures_.grad_output || captures_.grad_input || captures_.param_grad))
    no_derivative.emplace();
  // The meter (--columns saved_bytes,peak_bytes) sees the recorder's work as modrec's.
  std::optional<MemoryMeter> meter;
  if (options_.measures_memory()) meter.emplace(model_.state_tensors(), pass->recorder.get());
  CallHooks& hooks = meter ? static_cast<CallHooks&>(*meter) : *pass->recorder;
  c10::IValue output = run_forward(model_, batch, {true}, hooks, pass->trace);
  throw_if_interrupted();  // a long pass ends in the next phase otherwise; never inside hooks
  if (!validated_ && !backward_ && options_.backward && !has_gradient(output)) {
    // Known after the first forward only: that pass is run again with the captures it can have.
    if (pass->file) std::filesystem::remove(pass->file->path());
    no_derivative.reset();
    pass.reset();
    record_forward_only();
    return run_pass(batch, number, rows);
  }
  validate_layers(*pass);
  if (no_derivative) {
    pass->recorder->refuse_blocked(*no_derivative, first_output(output));
    if (captures_.param_grad)
      pass->blocked_params =
          blocked_parameters(*no_derivative, first_output(output), model_.parameters());
  }
  no_derivative.reset();
  if (backward_)
    backward_(output);
  else if (options_.backward)
    run_backward(std::move(output), {options_.loss, seed_, options_.grad_file});
  if (meter) meter->add_to(pass->trace.trace());
  throw_if_interrupted();
  return pass;
}

namespace {

std::string not_recorded(size_t gradients) {
  return std::to_string(gradients) + (gradients == 1 ? " gradient" : " gradients") +
         " not recorded, listed under no_gradient in manifest.json and stats.json";
}

// One warning for the gradients refused through operators without a derivative (recorder.h,
// refuse_blocked), naming the operators; one for those the model cannot tell (CallCaveats'
// untold_inputs, untold_outputs), with the reasons (each naming its call: the first few unless -v).
void warn_no_gradient(const std::vector<LayerRecording>& layers) {
  std::set<std::string> ops, reasons;
  size_t blocked = 0, untold = 0;
  for (const auto& layer : layers)
    for (const auto& c : layer.captures)
      for (const NoGradient& g : c.sink.no_gradient()) {
        ops.insert(g.through.begin(), g.through.end());
        if (!g.reason.empty()) reasons.insert(g.reason);
        ++(g.through.empty() ? untold : blocked);
      }
  if (blocked)
    log::warn("no gradient flows back through ",
              join(std::vector<std::string>(ops.begin(), ops.end()), ", "),
              " (no derivative in LibTorch): ", not_recorded(blocked));
  if (untold)
    log::warn(not_recorded(untold), ": ",
              log::listed(std::vector<std::string>(reasons.begin(), reasons.end()), "; "));
}

}  // namespace

void Recording::record_forward_only() {
  const std::string why = "the model's first output does not require grad (no gradient flows back)";
  if (options_.captures && options_.captures->any_grad())
    throw Error(Exit::model_failed, why + ": no gradient to capture", "--capture",
                "capture only input,output (--capture output)");
  if (!options_.grad_file.empty())
    throw Error(Exit::model_failed, why + ": --grad has nothing to seed", "--grad", "drop --grad");
  log::info(why, ": recording the forward pass only");
  options_.backward = false;
  captures_ = options_.resolved_captures();
  layers_.set_captures(captures_);
}

namespace {

// The paths of the calls (the root left out) that `untold` holds of, each once.
template <typename Untold>
std::vector<std::string> untold_paths(const CallTrace& trace, const ModuleTree& tree,
                                      Untold untold) {
  std::vector<std::string> paths;
  for (size_t c = 1; c < trace.calls.size(); ++c) {
    const std::string& path = tree.modules[trace.calls[c].module].path;
    if (untold(trace.calls[c]) && std::find(paths.begin(), paths.end(), path) == paths.end())
      paths.push_back(path);
  }
  return paths;
}

// What a .pt2 archive does not keep of a call without a signature, named once where the captures
// asked for hold it:
// - given several tensors (Call::keywords_untold), its input and grad_input are the graph's
//   values in the order its nodes first read them, which may not be forward's;
// - its result's structure (Call::structure_untold): its output and grad_output are the graph's
//   values in the order it made them; one that returned a tensor at several places has one graph
//   value for them all, whose gradient sums the places', where eager hooks see each place's.
void warn_untold(const CallTrace& trace, const ModuleTree& tree, const CaptureSet& captures) {
  const char* keep =
      ": modrec.export keeps them where the call's arguments are tensors, numbers "
      "and containers of them";
  if (captures.input || captures.grad_input) {
    const auto paths = untold_paths(trace, tree, [](const Call& call) {
      return call.keywords_untold && call.inputs.tensors.size() > 1;
    });
    if (!paths.empty())
      log::warn("calls given several tensors whose arguments the archive does not name (",
                paths.size(), "): ", log::listed(paths),
                "; their input and grad_input are in the order the graph first reads them, which "
                "may not be forward's",
                keep);
  }
  if (captures.output || captures.grad_output) {
    const auto paths =
        untold_paths(trace, tree, [](const Call& call) { return call.structure_untold; });
    if (!paths.empty())
      log::warn("calls whose result's structure the archive does not keep (", paths.size(),
                "): ", log::listed(paths),
                "; their output and grad_output are in the order the graph makes them, and where "
                "one returned a tensor at several places (diffusers' DownBlock2D: `return h, "
                "(h,)`), its grad_output is one gradient, the places' sum, where eager hooks see "
                "each place's",
                keep);
  }
}

}  // namespace

// An unknown label is found once the first pass has shown every call.
void Recording::validate_layers(const Collected& pass) {
  if (validated_) return;
  matcher_.select(pass.selection.layer_refs());
  edits_.check_all_matched();
  warn_untold(pass.trace.trace(), model_.tree(), captures_);
  validated_ = true;
}

std::string Recording::write(const ModelOptions& model, const InputOptions& inputs,
                             const InputBatches& batches) {
  std::vector<LayerRecording>& layers = layers_.layers();
  write_tensor_files(layers);
  remove_tree(run_paths::spool(dir_));
  write_file_atomic(run_paths::stats_json(dir_), stats_json(layers).dump(1) + "\n");
  write_file_atomic(run_paths::stats_csv(dir_), stats_csv(layers));
  if (kept_.empty() && options_.when.kind != When::Kind::always)
    log::warn("--when ", options_.when.text, " kept no batch: nothing was recorded");
  warn_no_gradient(layers);
  return write_run_manifest(dir_, record_manifest({model, inputs, batches, options_, kept_,
                                                   first_nonfinite_, layers, memory_}));
}

}  // namespace modrec
