#include "ops/transformers/moe_ops.h"

#include <ATen/ATen.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/csrc/autograd/custom_function.h>

#include <tuple>
#include <vector>

namespace modrec::pt2 {
namespace {

using at::Tensor;

// offs.tolist(): the cumulative token counts, one per expert (int32 or int64).
std::vector<int64_t> group_ends(const Tensor& offs) {
  const Tensor ends = offs.to(at::kCPU, at::kLong).contiguous();
  return {ends.data_ptr<int64_t>(), ends.data_ptr<int64_t>() + ends.numel()};
}

// _grouped_mm_fallback: output[s:e] = input[s:e] @ weight[i] for each expert i's rows.
Tensor grouped_mm_fallback(const Tensor& input, const Tensor& weight, const Tensor& offs) {
  Tensor output = at::zeros({input.size(0), weight.size(2)}, input.options());
  int64_t start = 0;
  const std::vector<int64_t> ends = group_ends(offs);
  for (size_t i = 0; i < ends.size(); ++i) {
    const int64_t end = ends[i];
    if (start == end) continue;
    Tensor rows = output.slice(0, start, end);  // torch.mm(..., out=output[start:end])
    at::mm_out(rows, input.slice(0, start, end), weight.select(0, static_cast<int64_t>(i)));
    start = end;
  }
  return output;
}

// _grouped_mm_fallback_bwd: each expert's rows' gradients, grad_input[s:e] = grad_output[s:e] @
// weight[i].T and grad_weight[i] = input[s:e].T @ grad_output[s:e].
std::tuple<Tensor, Tensor> grouped_mm_fallback_backward(const Tensor& input, const Tensor& weight,
                                                        const Tensor& offs,
                                                        const Tensor& grad_output) {
  Tensor grad_input = at::zeros_like(input), grad_weight = at::zeros_like(weight);
  int64_t start = 0;
  const std::vector<int64_t> ends = group_ends(offs);
  for (size_t i = 0; i < ends.size(); ++i) {
    const int64_t end = ends[i];
    if (start == end) continue;
    const auto e = static_cast<int64_t>(i);
    Tensor input_rows = grad_input.slice(0, start, end), expert = grad_weight.select(0, e);
    at::mm_out(input_rows, grad_output.slice(0, start, end), weight.select(0, e).t());
    at::mm_out(expert, input.slice(0, start, end).t(), grad_output.slice(0, start, end));
    start = end;
  }
  return {grad_input, grad_weight};
}

// register_autograd's node: input and weight saved, offs kept; the backward runs the
// grouped_mm_fallback_backward operator (a library of the user's that defines it wins).
class GroupedMmFallback : public torch::autograd::Function<GroupedMmFallback> {
 public:
  static Tensor forward(torch::autograd::AutogradContext* ctx, const Tensor& input,
                        const Tensor& weight, const Tensor& offs) {
    ctx->save_for_backward({input, weight});
    ctx->saved_data["offs"] = offs;
    at::AutoDispatchBelowADInplaceOrView below_autograd;
    return grouped_mm_fallback(input, weight, offs);
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    static const auto op = c10::Dispatcher::singleton()
                               .findSchemaOrThrow("transformers::grouped_mm_fallback_backward", "")
                               .typed<std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&,
                                                                 const Tensor&, const Tensor&)>();
    const torch::autograd::variable_list saved = ctx->get_saved_variables();
    auto [grad_input, grad_weight] =
        op.call(saved[0], saved[1], ctx->saved_data["offs"].toTensor(), grads[0]);
    return {grad_input, grad_weight, Tensor()};
  }
};

Tensor grouped_mm_fallback_autograd(const Tensor& input, const Tensor& weight, const Tensor& offs) {
  return GroupedMmFallback::apply(input, weight, offs);
}

}  // namespace

void define_transformers(OpDefiner& ops) {
  constexpr auto kExplicit = c10::DispatchKey::CompositeExplicitAutograd;
  ops.define(
      "grouped_mm_fallback_backward(Tensor input, Tensor weight, Tensor offs, Tensor "
      "grad_output) -> (Tensor, Tensor)",
      kExplicit, grouped_mm_fallback_backward);
  ops.define("grouped_mm_fallback(Tensor input, Tensor weight, Tensor offs) -> Tensor", kExplicit,
             grouped_mm_fallback, grouped_mm_fallback_autograd);
}

}  // namespace modrec::pt2
