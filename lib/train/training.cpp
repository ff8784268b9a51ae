#include "train/training.h"

#include <torch/optim/optimizer.h>

#include <cmath>

#include "record/recording.h"
#include "pass/forward.h"
#include "train/optimizer.h"
#include "train/parameter_updates.h"
#include "train/training_loss.h"
#include "util/error.h"
#include "util/interrupt.h"
#include "util/log.h"
#include "util/stopwatch.h"

namespace modrec {
namespace {

// The steps not recorded see no hooks.
class NoHooks : public CallHooks {
 public:
  void enter(int, int, const std::vector<c10::IValue>&) override {}
  c10::IValue leave(int, int, const c10::IValue& output) override { return output; }
};

// The parameters the optimizer steps; a model without one (none, or all frozen) cannot be trained.
std::vector<at::Tensor> trainable_parameters(InstrumentedModel& model) {
  std::vector<at::Tensor> out;
  for (const at::Tensor& p : model.parameters())
    if (p.requires_grad()) out.push_back(p);
  if (out.empty())
    throw Error(Exit::usage,
                "the model has no trainable parameter (none, or every one has requires_grad=False)",
                "MODEL",
                "watch trains parameters; modrec record looks at a model without training");
  return out;
}

}  // namespace

Training::Training(InstrumentedModel& model, const RecordOptions& record, const TrainOptions& train,
                   std::string dir)
    : model_(model),
      record_(record),
      train_(train),
      dir_(std::move(dir)),
      optimizer_(make_optimizer(trainable_parameters(model), train)) {}

Training::~Training() = default;

double Training::backward(const c10::IValue& output, const at::Tensor& targets) {
  const at::Tensor loss = training_loss(output, targets, train_.loss);
  loss.backward();
  return loss.item<double>();
}

std::optional<TrainingStop> Training::run(
    StepBatches& batches, StepSeries& series,
    const std::function<void(int done, int total)>& progress) {
  Stopwatch clock;
  for (int64_t step = 1; step <= train_.steps; ++step) {
    throw_if_interrupted();
    const StepBatch batch = batches.next();
    model_.clear_gradients();  // as zero_grad(set_to_none=True)
    double loss = 0;
    std::unique_ptr<Recording> recording;
    if (step % train_.every == 0) {
      recording = std::make_unique<Recording>(
          model_, record_, dir_,
          [&](const c10::IValue& output) { loss = backward(output, batch.targets); });
      recording->run(InputBatches::of(batch.inputs), {});
    } else {
      NoHooks none;
      TraceCollector trace;
      loss = backward(run_forward(model_, batch.inputs, {true}, none, trace), batch.targets);
    }
    losses_.push_back(loss);
    series.add_loss(step, loss);
    if (!std::isfinite(loss)) return find_nonfinite(step, batch);
    const bool updates = recording && train_.update;
    if (updates) updates_.snapshot(model_, recording->layers());
    optimizer_->step();
    if (recording) {
      series.add(step, loss, recording->layers(),
                 updates ? updates_.changes() : std::vector<ParameterUpdate>{});
      recorded_.push_back(step);
    }
    log::debug("timing: step ", step, " ", log::seconds(clock.lap()), " s");
    if (progress) progress(static_cast<int>(step), static_cast<int>(train_.steps));
  }
  return std::nullopt;
}

TrainingStop Training::find_nonfinite(int64_t step, const StepBatch& batch) {
  RecordOptions all;
  all.captures = CaptureSet::parse({"output"});
  all.backward = false;
  all.save = SaveFormat::none;
  all.when = When::parse("nonfinite");
  Recording recording(model_, all, dir_);
  recording.run(InputBatches::of(batch.inputs), {});
  const auto& found = recording.nonfinite_found();
  return found ? TrainingStop{step, found->label, found->path} : TrainingStop{step, "", ""};
}

}  // namespace modrec
