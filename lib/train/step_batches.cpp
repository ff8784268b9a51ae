#include "train/step_batches.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "util/error.h"

namespace modrec {

StepBatches::StepBatches(std::vector<c10::IValue> inputs, at::Tensor targets, int64_t batch_size,
                         std::optional<uint64_t> shuffle)
    : inputs_(std::move(inputs)), targets_(std::move(targets)) {
  for (const auto& input : inputs_) {
    if (!input.isTensor()) continue;  // an --arg value, passed unchanged to every step
    if (input.toTensor().dim() == 0)
      throw Error(Exit::usage, "training needs tensor inputs with a sample dimension", "--input",
                  "give tensors whose dim 0 counts the samples");
    const int64_t n = input.toTensor().size(0);
    if (samples_ != 0 && n != samples_)
      throw Error(Exit::usage, "the inputs differ in their number of samples", "--input",
                  "give inputs sharing dim 0");
    samples_ = n;
  }
  if (samples_ == 0)
    throw Error(Exit::bad_input, "the training data has no sample", "--input",
                "give tensors whose dim 0 counts at least one sample");
  if (targets_.defined() && (targets_.dim() == 0 || targets_.size(0) != samples_))
    throw Error(Exit::bad_input,
                "expected one target per input sample (" + std::to_string(samples_) + ")",
                "--targets", "save the targets with torch.save(t, FILE), t.shape[0] == samples");
  batch_size_ = batch_size == 0 ? samples_ : std::min(batch_size, samples_);
  if (shuffle) generator_ = at::make_generator<at::CPUGeneratorImpl>(*shuffle);
}

StepBatch StepBatches::next() {
  if (position_ == 0 || position_ >= samples_) {
    position_ = 0;
    order_ = generator_ ? at::randperm(samples_, *generator_, at::kLong)
                        : at::arange(samples_, at::kLong);
  }
  const int64_t end = std::min(samples_, position_ + batch_size_);
  const at::Tensor rows = order_.slice(0, position_, end);
  position_ = end;
  StepBatch batch;
  for (const auto& input : inputs_) {
    if (!input.isTensor()) {
      batch.inputs.push_back(input);
      continue;
    }
    const at::Tensor t = input.toTensor();
    batch.inputs.emplace_back(t.index_select(0, rows.to(t.device())));
  }
  if (targets_.defined()) batch.targets = targets_.index_select(0, rows.to(targets_.device()));
  return batch;
}

}  // namespace modrec
