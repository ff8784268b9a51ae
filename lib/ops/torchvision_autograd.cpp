#include "ops/torchvision_autograd.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/autograd.h>
#include <torch/library.h>

#include <memory>
#include <vector>

namespace modrec {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// torchvision's operators these kernels call, found once (registered before the kernels are).
struct Ops {
  c10::OperatorHandle roi_align, roi_align_backward, roi_pool, roi_pool_backward;
};

const Ops& ops() {
  static const Ops found = [] {
    auto& d = c10::Dispatcher::singleton();
    return Ops{d.findSchemaOrThrow("torchvision::roi_align", ""),
               d.findSchemaOrThrow("torchvision::_roi_align_backward", ""),
               d.findSchemaOrThrow("torchvision::roi_pool", ""),
               d.findSchemaOrThrow("torchvision::_roi_pool_backward", "")};
  }();
  return found;
}

// Calls `op` below autograd, with boxed arguments.
std::vector<c10::IValue> call(const c10::OperatorHandle& op, std::vector<c10::IValue> args) {
  at::AutoDispatchBelowADInplaceOrView below;
  op.callBoxed(args);
  return args;
}

// The input's sizes the backward operators take to size their result.
void save_input_shape(AutogradContext* ctx, const at::Tensor& input) {
  ctx->saved_data["sizes"] = input.sizes().vec();
}

std::vector<c10::IValue> input_shape(AutogradContext* ctx) {
  std::vector<c10::IValue> out;
  for (int64_t s : ctx->saved_data["sizes"].toIntVector()) out.emplace_back(s);
  return out;
}

// roi_align(input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned).
struct RoIAlign : torch::autograd::Function<RoIAlign> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& input, const at::Tensor& rois,
                            double scale, int64_t height, int64_t width, int64_t sampling,
                            bool aligned) {
    ctx->save_for_backward({rois});
    save_input_shape(ctx, input);
    ctx->saved_data["scale"] = scale;
    ctx->saved_data["height"] = height;
    ctx->saved_data["width"] = width;
    ctx->saved_data["sampling"] = sampling;
    ctx->saved_data["aligned"] = aligned;
    return call(ops().roi_align, {input, rois, scale, height, width, sampling, aligned})[0]
        .toTensor();
  }

  // _roi_align_backward(grad, rois, spatial_scale, pooled_height, pooled_width, batch_size,
  // channels, height, width, sampling_ratio, aligned)
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    auto& d = ctx->saved_data;
    std::vector<c10::IValue> args{grad[0], ctx->get_saved_variables()[0], d["scale"], d["height"],
                                  d["width"]};
    for (c10::IValue& s : input_shape(ctx)) args.push_back(std::move(s));
    args.push_back(d["sampling"]);
    args.push_back(d["aligned"]);
    return {call(ops().roi_align_backward, std::move(args))[0].toTensor(), {}, {}, {}, {}, {}, {}};
  }
};

// roi_pool(input, rois, spatial_scale, pooled_height, pooled_width) -> (output, argmax).
struct RoIPool : torch::autograd::Function<RoIPool> {
  static variable_list forward(AutogradContext* ctx, const at::Tensor& input,
                               const at::Tensor& rois, double scale, int64_t height,
                               int64_t width) {
    const std::vector<c10::IValue> out = call(ops().roi_pool, {input, rois, scale, height, width});
    const at::Tensor argmax = out[1].toTensor();
    ctx->save_for_backward({rois, argmax});
    ctx->mark_non_differentiable({argmax});
    save_input_shape(ctx, input);
    ctx->saved_data["scale"] = scale;
    ctx->saved_data["height"] = height;
    ctx->saved_data["width"] = width;
    return {out[0].toTensor(), argmax};
  }

  // _roi_pool_backward(grad, rois, argmax, spatial_scale, pooled_height, pooled_width,
  // batch_size, channels, height, width)
  static variable_list backward(AutogradContext* ctx, variable_list grad) {
    auto& d = ctx->saved_data;
    const variable_list saved = ctx->get_saved_variables();
    std::vector<c10::IValue> args{grad[0], saved[0], saved[1], d["scale"], d["height"], d["width"]};
    for (c10::IValue& s : input_shape(ctx)) args.push_back(std::move(s));
    return {call(ops().roi_pool_backward, std::move(args))[0].toTensor(), {}, {}, {}, {}};
  }
};

at::Tensor roi_align(const at::Tensor& input, const at::Tensor& rois, double scale, int64_t height,
                     int64_t width, int64_t sampling, bool aligned) {
  return RoIAlign::apply(input, rois, scale, height, width, sampling, aligned);
}

std::tuple<at::Tensor, at::Tensor> roi_pool(const at::Tensor& input, const at::Tensor& rois,
                                            double scale, int64_t height, int64_t width) {
  const variable_list out = RoIPool::apply(input, rois, scale, height, width);
  return {out[0], out[1]};
}

bool needs_autograd(const char* op) {
  const auto handle = c10::Dispatcher::singleton().findSchema({op, ""});
  return handle && !handle->hasKernelForDispatchKey(c10::DispatchKey::Autograd);
}

}  // namespace

void add_torchvision_autograd() {
  static std::unique_ptr<torch::Library> registered;
  if (registered || !needs_autograd("torchvision::roi_align") ||
      !needs_autograd("torchvision::roi_pool"))
    return;
  registered = std::make_unique<torch::Library>(torch::Library::IMPL, "torchvision",
                                                c10::DispatchKey::Autograd, __FILE__, __LINE__);
  registered->impl("roi_align", TORCH_FN(roi_align));
  registered->impl("roi_pool", TORCH_FN(roi_pool));
}

}  // namespace modrec
