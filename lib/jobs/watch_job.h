// `modrec watch`: trains a TorchScript model or .pt2 archive with torch::optim and records chosen
// layers' statistics every few steps (docs/run-dir.md: steps.csv, steps.jsonl).
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "arguments/input_options.h"
#include "load/model_options.h"
#include "record/record_options.h"
#include "tensorboard/tensorboard_options.h"
#include "train/train_options.h"
#include "train/training_stop.h"

namespace modrec {

struct WatchJob {
  ModelOptions model;
  InputOptions inputs;
  RecordOptions record;  // layers and captures (statistics only)
  TrainOptions train;
  std::string out = "modrec-watch";
  bool force = false;
  std::string save_model;                             // --save-model FILE; empty: not saved
  TensorBoardOptions tensorboard;                     // --tensorboard, --tensorboard-run
  std::function<void(int done, int total)> progress;  // after each step
};

struct WatchOutcome {
  int64_t steps = 0;                    // as resolved: --steps, or one pass
  std::optional<TrainingStop> stopped;  // where a non-finite loss stopped training
};

// Writes the run directory, also when a non-finite loss stopped training (then the model is not
// saved).
WatchOutcome run_watch_job(const WatchJob& job);

}  // namespace modrec
