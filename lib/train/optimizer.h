// --optimizer: LibTorch's torch::optim SGD or Adam over the module's parameters.
#pragma once
#include <torch/optim/optimizer.h>

#include <memory>
#include <vector>

#include "train/train_options.h"

namespace modrec {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(std::vector<at::Tensor> params,
                                                        const TrainOptions& options);

}  // namespace modrec
