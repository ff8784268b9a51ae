#include "record/collect/gradient_hook.h"

#include <ATen/SequenceNumber.h>
#include <torch/csrc/autograd/function.h>
#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include "memory/own_work.h"

namespace modrec {
namespace {

// A pre-hook on the producing node, reading the slot of this output. Tensor::register_hook is not
// used for non-leaves: in LibTorch 1.13 a second registration after an in-place op joins the hook
// list bound to the tensor's previous node and would see the gradient of the previous value.
class SlotPreHook : public torch::autograd::FunctionPreHook {
 public:
  SlotPreHook(uint32_t slot, GradientCallback callback)
      : slot_(slot), callback_(std::move(callback)) {}
  torch::autograd::variable_list operator()(const torch::autograd::variable_list& grads) override {
    OwnWork own;  // what the callback keeps is modrec's, not the model's (memory_meter.h)
    if (slot_ < grads.size() && grads[slot_].defined()) callback_(grads[slot_]);
    return grads;
  }

 private:
  uint32_t slot_;
  GradientCallback callback_;
};

}  // namespace

GradientEdge on_gradient(const at::Tensor& t, GradientCallback callback) {
  if (const auto& node = t.grad_fn()) {
    node->add_pre_hook(std::make_unique<SlotPreHook>(t.output_nr(), std::move(callback)));
  } else {
    t.register_hook([cb = std::move(callback)](const at::Tensor& grad) {
      OwnWork own;
      cb(grad);
    });
  }
  return gradient_edge(t);
}

GradientEdge gradient_edge(const at::Tensor& t) {
  auto edge = torch::autograd::impl::gradient_edge(t);
  const torch::autograd::Node* node = edge.function.get();
  // The deleter owns the node's reference: shared_ptr<const void> holds any pointer type.
  return {std::shared_ptr<const void>(node, [held = std::move(edge.function)](const void*) {}),
          edge.input_nr};
}

uint64_t autograd_clock() { return at::sequence_number::peek(); }

// Consumers hold their producer through the shared_ptr in their edges; t's autograd meta is the
// one other owner.
bool unconsumed_since(const at::Tensor& t, uint64_t clock) {
  const auto& node = t.grad_fn();
  return node && !t.is_view() && node->sequence_nr() >= clock && node.use_count() == 1;
}

}  // namespace modrec
