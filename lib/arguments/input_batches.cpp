#include "arguments/input_batches.h"

#include <algorithm>

#include "util/error.h"
#include "sources/memory_source.h"

namespace modrec {
namespace {

// The samples every input shares, checked when they are to be cut along dim 0.
// A list argument's tensors are passed whole: with no other tensor, there is nothing to cut.
int64_t shared_samples(const std::vector<SourcePtr>& inputs, bool cut, const char* flag) {
  const int64_t samples = inputs.empty() ? -1 : inputs[0]->samples();
  const auto uncuttable = [&](const SourcePtr& s) {
    return s->samples() < 0 || s->samples() != samples;
  };
  if (cut && (inputs.empty() || std::any_of(inputs.begin(), inputs.end(), uncuttable)))
    throw Error(Exit::usage,
                std::string("inputs must be tensors sharing their first dimension to be ") +
                    (std::string(flag) == "--shard" ? "sharded" : "batched"),
                flag, std::string("drop ") + flag + " or give inputs with equal dim 0");
  return samples;
}

}  // namespace

at::Tensor InputBatches::placed(const at::Tensor& t) const {
  const at::ScalarType dtype = floating_ && t.is_floating_point() ? *floating_ : t.scalar_type();
  return t.device() == device_ && t.scalar_type() == dtype ? t : t.to(device_, dtype);
}

InputBatches::InputBatches(ForwardArguments inputs, SourcePtr targets, int64_t batch_size,
                           const std::optional<Shard>& shard, at::Device device,
                           const std::string& targets_name)
    : inputs_(std::move(inputs)),
      targets_(std::move(targets)),
      batch_size_(batch_size),
      sharded_(shard.has_value()),
      device_(device) {
  total_ = shared_samples(sources(), !whole(), shard ? "--shard" : "--batch-size");
  range_ = whole() ? SampleRange{0, std::max<int64_t>(total_, 1)} : shard_range(shard, total_);
  if (targets_ && targets_->samples() != total_)
    throw Error(Exit::bad_input,
                "--targets holds " + std::to_string(targets_->samples()) + " rows, expected " +
                    std::to_string(total_) + " labels: one per input sample",
                targets_name, "save one target per sample along dim 0");
}

InputBatches InputBatches::of(const std::vector<c10::IValue>& values) {
  ForwardArguments arguments;
  at::Device device = at::kCPU;
  for (const auto& v : values) {
    if (!v.isTensor()) {
      arguments.push_back({"", nullptr, v});
      continue;
    }
    arguments.push_back({"", memory_source(v.toTensor()), {}});
    device = v.toTensor().device();
  }
  return InputBatches(std::move(arguments), nullptr, 0, std::nullopt, device);
}

int64_t InputBatches::count() const { return (range_.size() + batch_rows() - 1) / batch_rows(); }

InputBatch InputBatches::get(int64_t index) const {
  const int64_t size = batch_rows();
  const SampleRange rows{range_.start + index * size,
                         std::min(range_.end, range_.start + (index + 1) * size)};
  InputBatch batch;
  for (const auto& a : inputs_) {
    if (!a.items.empty()) {
      c10::List<at::Tensor> list;
      for (const auto& item : a.items) list.push_back(placed(item->all()));
      batch.inputs.emplace_back(std::move(list));
    } else if (a.source) {
      batch.inputs.emplace_back(placed(whole() ? a.source->all() : a.source->rows(rows)));
    } else {
      batch.inputs.push_back(a.value);
    }
  }
  if (targets_) batch.targets = whole() ? targets_->all() : targets_->rows(rows);
  return batch;
}

}  // namespace modrec
