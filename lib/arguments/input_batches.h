// The batches a run feeds its model: --batch-size rows at a time from the --input sources, within
// the --shard's range, each read when its turn comes and moved to the run's device.
#pragma once
#include <ATen/core/ivalue.h>

#include <optional>
#include <vector>

#include "sources/shard.h"
#include "arguments/forward_inputs.h"

namespace modrec {

struct InputBatch {
  std::vector<c10::IValue> inputs;  // one per forward argument (tensors on the device)
  at::Tensor targets;               // the batch's rows of the targets (CPU), or undefined
};

class InputBatches {
 public:
  // `inputs`: forward's arguments; `targets`: one row per sample, or null. `batch_size` 0: one
  // batch. Batching or sharding cuts the tensor sources along dim 0 and passes the other
  // arguments unchanged to every call; it needs sources sharing their dim 0: a usage Error naming
  // --batch-size or --shard otherwise (without either, every input is passed whole, whatever its
  // shape). Targets of another sample count are Error(bad_input) naming `targets_name` (their
  // file).
  InputBatches(ForwardArguments inputs, SourcePtr targets, int64_t batch_size,
               const std::optional<Shard>& shard, at::Device device,
               const std::string& targets_name = "");
  // Values already in memory (tensors on their device), run as one batch.
  static InputBatches of(const std::vector<c10::IValue>& values);

  // Floating-point tensors are also cast to `dtype` as they are taken (diff of a float32 model
  // against its bfloat16 copy on one input); nullopt: as read.
  void cast_floating_to(std::optional<at::ScalarType> dtype) { floating_ = dtype; }

  int64_t count() const;
  InputBatch get(int64_t index) const;              // index from 0, < count()
  SampleRange range() const { return range_; }      // the samples the batches cover
  int64_t total_samples() const { return total_; }  // of the whole source (-1: a 0-dim input)
  const ForwardArguments& arguments() const { return inputs_; }
  std::vector<SourcePtr> sources() const { return tensor_sources(inputs_); }
  const SourcePtr& targets() const { return targets_; }

 private:
  bool whole() const { return batch_size_ == 0 && !sharded_; }
  at::Tensor placed(const at::Tensor& t) const;  // on the device, in the cast dtype
  // Samples per batch: --batch-size, or the whole range (also a shard's without --batch-size).
  int64_t batch_rows() const { return batch_size_ ? batch_size_ : range_.size(); }

  ForwardArguments inputs_;
  SourcePtr targets_;
  int64_t batch_size_ = 0;
  bool sharded_ = false;
  at::Device device_;
  std::optional<at::ScalarType> floating_;
  int64_t total_ = 0;
  SampleRange range_;
};

}  // namespace modrec
