#include "train/train_options.h"

#include "util/error.h"

namespace modrec {

const EnumNames<TrainLoss>& train_loss_names() {
  static const EnumNames<TrainLoss> names{{"cross_entropy", TrainLoss::cross_entropy},
                                          {"mse", TrainLoss::mse},
                                          {"sum", TrainLoss::sum},
                                          {"mean", TrainLoss::mean}};
  return names;
}

const EnumNames<OptimizerKind>& optimizer_names() {
  static const EnumNames<OptimizerKind> names{{"sgd", OptimizerKind::sgd},
                                              {"adam", OptimizerKind::adam}};
  return names;
}

void TrainOptions::validate() const {
  if (needs_targets() && targets_file.empty())
    throw Error(Exit::usage, "--loss " + name_of(train_loss_names(), loss) + " needs targets",
                "--targets", "give --targets FILE: one target per input sample");
  if (!needs_targets() && !targets_file.empty())
    throw Error(Exit::usage, "--targets is read only by --loss cross_entropy or mse", "--targets",
                "drop --targets or use --loss cross_entropy or mse");
  if (!(lr > 0))
    throw Error(Exit::usage, "learning rate must be positive", "--lr", "use e.g. 0.01");
  if (momentum < 0 || weight_decay < 0)
    throw Error(Exit::usage, "momentum and weight decay must not be negative",
                momentum < 0 ? "--momentum" : "--weight-decay");
  if (momentum != 0 && optimizer != OptimizerKind::sgd)
    throw Error(Exit::usage, "--momentum is SGD's", "--momentum",
                "drop --momentum or use --optimizer sgd");
  if (steps < 0)
    throw Error(Exit::usage, "steps must be at least 1 (0: one pass)", "--steps", "use e.g. 100");
  if (batch_size < 0)
    throw Error(Exit::usage, "batch size must be positive", "--batch-size", "use e.g. 32");
  if (every < 1) throw Error(Exit::usage, "--every must be at least 1", "--every", "use e.g. 10");
}

}  // namespace modrec
