#include "train/training_loss.h"

#include <ATen/ATen.h>

#include "pass/backward.h"
#include "util/error.h"

namespace modrec {

at::Tensor training_loss(const c10::IValue& output, const at::Tensor& targets, TrainLoss loss) {
  const at::Tensor out = first_output(output);
  try {
    switch (loss) {
      case TrainLoss::sum:
        return out.sum();
      case TrainLoss::mean:
        return out.mean();
      case TrainLoss::mse:
        return at::mse_loss(out, targets.to(out.dtype()));
      case TrainLoss::cross_entropy:
        return at::cross_entropy_loss(out, targets);
    }
  } catch (const c10::Error& e) {
    throw Error(Exit::bad_input,
                "the targets do not fit the model's output " + c10::str(out.sizes()) + ": " +
                    first_line(e.what()),
                "--targets",
                "give class indices (long, one per sample) for cross_entropy, or tensors of the "
                "output's shape for mse");
  }
  return {};
}

}  // namespace modrec
