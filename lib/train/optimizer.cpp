#include "train/optimizer.h"

#include <torch/optim/adam.h>
#include <torch/optim/sgd.h>

namespace modrec {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(std::vector<at::Tensor> params,
                                                        const TrainOptions& options) {
  if (options.optimizer == OptimizerKind::adam)
    return std::make_unique<torch::optim::Adam>(
        std::move(params),
        torch::optim::AdamOptions(options.lr).weight_decay(options.weight_decay));
  return std::make_unique<torch::optim::SGD>(std::move(params),
                                             torch::optim::SGDOptions(options.lr)
                                                 .momentum(options.momentum)
                                                 .weight_decay(options.weight_decay));
}

}  // namespace modrec
