// --loss of watch: a scalar from the model's first output (and the batch's targets).
#pragma once
#include <ATen/core/ivalue.h>

#include "train/train_options.h"

namespace modrec {

// cross_entropy and mse as torch.nn.functional's with mean reduction; sum and mean of the output.
// Throws Error(bad_input) naming --targets when the targets do not fit the output.
at::Tensor training_loss(const c10::IValue& output, const at::Tensor& targets, TrainLoss loss);

}  // namespace modrec
