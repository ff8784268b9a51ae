#include "record/recording.h"

#include <spdlog/spdlog.h>

#include <filesystem>

#include "record/backward.h"
#include "record/batch_file.h"
#include "record/batches.h"
#include "record/call_selection.h"
#include "record/recorder.h"
#include "record/run_files.h"
#include "run/forward.h"
#include "util/atomic_file.h"
#include "util/interrupt.h"
#include "util/stopwatch.h"

namespace modrec {

// One batch's forward and backward; what it captured waits here until merged. Never moves: the
// recorder's hooks hold the selection and the batch file.
struct Recording::Pass {
  Pass(const LayerMatcher& matcher, const ModuleTree& tree) : selection(matcher, tree) {}

  TraceCollector trace;
  CallSelection selection;
  std::unique_ptr<BatchFile> file;  // when saving tensors
  std::unique_ptr<Recorder> recorder;

  double disk_seconds() const { return file ? file->seconds() : 0.0; }
  PassCalls calls() const { return {selection.labels(), selection.numbers(), trace.trace()}; }
};

Recording::Recording(InstrumentedModel& model, const RecordOptions& options, std::string dir)
    : model_(model), options_(options), dir_(std::move(dir)),
      captures_(options.resolved_captures()), matcher_(options.layers),
      layers_(model.tree(), captures_, options.save, options.reduce, dir_),
      edits_(options.edits, model.tree()) {
  options.validate();
  if (!options.grad_file.empty()) seed_ = read_gradient_seed(options.grad_file);
}

void Recording::run(const std::vector<c10::IValue>& inputs,
                    const std::function<void(int done, int total)>& progress) {
  const auto batches = split_batches(inputs, options_.batch_size);
  if (seed_.defined() && batches.size() > 1)
    throw Error(Exit::usage, "--grad cannot be combined with --batch-size", "--grad",
                "record the whole input as one batch");
  Stopwatch clock;
  std::unique_ptr<Pass> pass;
  for (size_t i = 0; i < batches.size(); ++i) {
    throw_if_interrupted();
    // Kept tensors are written as they are captured: that disk time counts as the merge's.
    pass = run_pass(batches[i]);
    const double written = pass->disk_seconds();
    spdlog::debug("timing: batch {} pass {:.6f} s", i + 1, clock.lap() - written);
    layers_.merge(pass->recorder->captured(), pass->calls());
    ++batches_;
    spdlog::debug("timing: batch {} store {:.6f} s", i + 1, clock.lap() + written);
    if (progress) progress(static_cast<int>(i + 1), static_cast<int>(batches.size()));
  }
  throw_if_interrupted();
  merge_params(*pass);
}

void Recording::merge_params(const Pass& last) {
  std::unique_ptr<BatchFile> file;
  if (options_.save != SaveFormat::none)
    file = std::make_unique<BatchFile>(dir_ + "/.spool/params.raw");
  layers_.merge_params(model_, last.calls(), file.get());
}

std::unique_ptr<Recording::Pass> Recording::run_pass(const std::vector<c10::IValue>& batch) {
  auto pass = std::make_unique<Pass>(matcher_, model_.tree());
  if (options_.save != SaveFormat::none)
    pass->file = std::make_unique<BatchFile>(dir_ + "/.spool/batch-" +
                                             std::to_string(batches_ + 1) + ".raw");
  CallSelection& selection = pass->selection;
  pass->recorder = std::make_unique<Recorder>(
      captures_, pass->file.get(),
      [&selection](int call, int module) { return selection(call, module); },
      edits_.empty() ? nullptr : &edits_);
  c10::IValue output = run_forward(model_, batch, {true}, *pass->recorder, pass->trace);
  throw_if_interrupted();  // a long pass ends in the next phase otherwise; never inside hooks
  validate_layers(*pass);
  if (options_.backward) run_backward(output, {options_.loss, seed_, options_.grad_file});
  throw_if_interrupted();
  return pass;
}

// An unknown label is found once the first pass has shown every call.
void Recording::validate_layers(const Pass& pass) {
  if (validated_) return;
  matcher_.select(pass.selection.layer_refs());
  edits_.check_all_matched();
  validated_ = true;
}

std::string Recording::write(const ModelOptions& model, const InputOptions& inputs,
                             const std::vector<c10::IValue>& input_values) {
  std::vector<LayerRecording>& layers = layers_.layers();
  write_tensor_files(layers);
  std::filesystem::remove_all(dir_ + "/.spool");
  write_file_atomic(dir_ + "/stats.json", stats_json(layers).dump(1) + "\n");
  write_file_atomic(dir_ + "/stats.csv", stats_csv(layers));
  const std::string manifest =
      manifest_json({model, inputs, input_values, options_, batches_, layers}).dump(2) + "\n";
  write_file_atomic(dir_ + "/manifest.json", manifest);
  return manifest;
}

}  // namespace modrec
