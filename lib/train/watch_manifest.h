// manifest.json of a `watch` directory (docs/run-dir.md): the model, data and settings, the loss
// of every step run, which steps were recorded, and where a non-finite loss stopped training.
#pragma once

#include <optional>
#include <vector>

#include "arguments/input_options.h"
#include "load/model_options.h"
#include "record/record_options.h"
#include "rundir/run_manifest.h"
#include "arguments/input_batches.h"
#include "train/train_options.h"
#include "train/training.h"

namespace modrec {

struct WatchedRun {
  const ModelOptions& model;
  const InputOptions& inputs;
  const InputBatches& data;  // the --input (and --targets) sources, the --shard's range
  const RecordOptions& record;
  const TrainOptions& train;
  const Training& training;
  const std::optional<TrainingStop>& stopped;
};

// A watch run's manifest (RunKind::watch).
RunManifest watch_manifest(const WatchedRun& run);

}  // namespace modrec
