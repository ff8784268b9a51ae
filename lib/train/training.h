// The train stage of `watch`: optimizer steps over the loaded module, batch after batch, with
// record's hooks on the steps it records (every --every steps) and plain forward on the others.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "instrument/instrumented_model.h"
#include "record/record_options.h"
#include "train/parameter_updates.h"
#include "train/step_batches.h"
#include "train/step_series.h"
#include "train/train_options.h"
#include "train/training_stop.h"

namespace torch::optim {
class Optimizer;
}

namespace modrec {

class Training {
 public:
  // `record`: which layers and captures the recorded steps keep (statistics only); `dir`: the
  // run's temporary directory.
  Training(InstrumentedModel& model, const RecordOptions& record, const TrainOptions& train,
           std::string dir);
  ~Training();

  // Runs the steps, writing each recorded one to `series`; `progress(done, total)` after each.
  // Stops at the first step whose loss is NaN or ±Inf (before its update) and says where.
  std::optional<TrainingStop> run(StepBatches& batches, StepSeries& series,
                                  const std::function<void(int done, int total)>& progress);

  const std::vector<double>& losses() const { return losses_; }  // per step run
  const std::vector<int64_t>& recorded() const { return recorded_; }

 private:
  // The loss of `output`, backward from it; returns its value.
  double backward(const c10::IValue& output, const at::Tensor& targets);
  // Forward again with every call's output recorded: the first that holds a NaN or ±Inf.
  TrainingStop find_nonfinite(int64_t step, const StepBatch& batch);

  InstrumentedModel& model_;
  const RecordOptions& record_;
  const TrainOptions& train_;
  std::string dir_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::vector<double> losses_;
  std::vector<int64_t> recorded_;
  ParameterUpdates updates_;  // --capture update: its buffers are reused from step to step
};

}  // namespace modrec
