// Which samples each training step sees: the data in order, batch after batch, starting over when
// it ends; with --shuffle SEED each pass over the data takes the next permutation drawn from one
// CPU generator seeded with SEED (torch.randperm(n, generator=torch.Generator().manual_seed(SEED))
// draws the same ones).
#pragma once
#include <ATen/core/Generator.h>
#include <ATen/core/ivalue.h>

#include <optional>
#include <vector>

namespace modrec {

struct StepBatch {
  std::vector<c10::IValue> inputs;
  at::Tensor targets;  // undefined without targets
};

class StepBatches {
 public:
  // `inputs`: forward's arguments: tensors sharing dim 0 (usage Error otherwise), cut into
  // batches, and other values passed unchanged to every step; `targets` as many rows or undefined.
  StepBatches(std::vector<c10::IValue> inputs, at::Tensor targets, int64_t batch_size,
              std::optional<uint64_t> shuffle);

  // The batch of step `step` (from 1); steps must come in order.
  StepBatch next();
  // How many steps one pass over the data takes: watch's steps when --steps is not given.
  int64_t steps_per_pass() const { return (samples_ + batch_size_ - 1) / batch_size_; }

 private:
  std::vector<c10::IValue> inputs_;
  at::Tensor targets_;
  int64_t samples_ = 0, batch_size_ = 0, position_ = 0;
  std::optional<at::Generator> generator_;
  at::Tensor order_;
};

}  // namespace modrec
