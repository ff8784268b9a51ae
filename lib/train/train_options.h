// What `watch` is asked to train with, as types: the CLI parses each flag once into these, and
// the train stage reads them (torch-free).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "util/enum_names.h"

namespace modrec {

// --loss: of the model's first output; cross_entropy and mse against --targets.
enum class TrainLoss { cross_entropy, mse, sum, mean };
enum class OptimizerKind { sgd, adam };  // --optimizer: torch::optim's, default settings

const EnumNames<TrainLoss>& train_loss_names();
const EnumNames<OptimizerKind>& optimizer_names();

struct TrainOptions {
  TrainLoss loss = TrainLoss::cross_entropy;
  std::string targets_file;  // --targets: one target per input sample
  OptimizerKind optimizer = OptimizerKind::sgd;
  double lr = 0.01;
  double momentum = 0;              // SGD only
  double weight_decay = 0;          // as torch.optim's (L2 added to the gradient, also for Adam)
  int64_t steps = 0;                // --steps; 0: one pass over the data (resolved by StepBatches)
  int64_t batch_size = 0;           // 0: the whole input each step
  std::optional<uint64_t> shuffle;  // --shuffle SEED: a new permutation each pass over the data
  int64_t every = 1;                // record steps every, 2*every, ...
  bool update = false;              // record each step's parameter change (--capture update)

  bool needs_targets() const { return loss == TrainLoss::cross_entropy || loss == TrainLoss::mse; }
  // Throws Error(usage) naming the flag of a setting that cannot work.
  void validate() const;
};

}  // namespace modrec
