#include "ops/meta/meta_kernels.h"

#include <ATen/ATen.h>
#include <ATen/native/ConvUtils.h>
#include <torch/library.h>

#include <memory>
#include <tuple>

namespace modrec {
namespace {

using at::IntArrayRef;
using at::Tensor;
using OptionalTensor = std::optional<Tensor>;

// A convolution's stride, padding, dilation or output padding per spatial dim: one value stands
// for all of them, as torch.nn.functional accepts it.
std::vector<int64_t> per_dim(IntArrayRef values, size_t dims) {
  if (values.size() == 1) return std::vector<int64_t>(dims, values[0]);
  return values.vec();
}

// aten::convolution: [N, C_out, *spatial], spatial sizes by PyTorch's own formulas (ConvUtils.h).
Tensor convolution_meta(const Tensor& input, const Tensor& weight, const OptionalTensor& /*bias*/,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                        bool transposed, IntArrayRef output_padding, int64_t groups) {
  // What the CPU kernel refuses, the meta kernel refuses: a wrong input is the model's failure.
  TORCH_CHECK(input.dim() == weight.dim() && input.dim() >= 3, "convolution of a ", input.dim(),
              "-d input with a ", weight.dim(), "-d weight");
  TORCH_CHECK(input.scalar_type() == weight.scalar_type(), "Input type (", input.scalar_type(),
              ") and weight type (", weight.scalar_type(), ") should be the same");
  const int64_t channels = transposed ? weight.size(0) : weight.size(1) * groups;
  TORCH_CHECK(input.size(1) == channels, "Given groups=", groups, ", weight of size ",
              weight.sizes(), ", expected input", input.sizes(), " to have ", channels,
              " channels, but got ", input.size(1), " channels instead");
  const size_t dims = static_cast<size_t>(input.dim()) - 2;
  const auto s = per_dim(stride, dims), p = per_dim(padding, dims), d = per_dim(dilation, dims);
  std::vector<int64_t> shape =
      transposed ? at::native::conv_input_size(input.sizes(), weight.sizes(), p,
                                               per_dim(output_padding, dims), s, d, groups)
                 : at::native::conv_output_size(input.sizes(), weight.sizes(), p, s, d);
  for (const int64_t size : shape)
    TORCH_CHECK(size > 0, "Calculated output size ", IntArrayRef(shape), " is too small for input",
                input.sizes());
  return at::empty(shape, input.options());
}

// aten::_convolution, which torch.jit.trace records (with cuDNN's flags) in place of convolution.
Tensor traced_convolution_meta(const Tensor& input, const Tensor& weight,
                               const OptionalTensor& bias, IntArrayRef stride, IntArrayRef padding,
                               IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                               int64_t groups, bool /*benchmark*/, bool /*deterministic*/,
                               bool /*cudnn_enabled*/, bool /*allow_tf32*/) {
  return convolution_meta(input, weight, bias, stride, padding, dilation, transposed,
                          output_padding, groups);
}

std::tuple<Tensor, Tensor, Tensor> convolution_backward_meta(
    const Tensor& grad_output, const Tensor& input, const Tensor& weight,
    at::OptionalIntArrayRef bias_sizes, IntArrayRef /*stride*/, IntArrayRef /*padding*/,
    IntArrayRef /*dilation*/, bool /*transposed*/, IntArrayRef /*output_padding*/,
    int64_t /*groups*/, std::array<bool, 3> mask) {
  const auto empty = [&](IntArrayRef shape, bool wanted) {
    return wanted ? at::empty(shape, grad_output.options()) : Tensor();
  };
  return {empty(input.sizes(), mask[0]), empty(weight.sizes(), mask[1]),
          empty(bias_sizes ? *bias_sizes : IntArrayRef{}, mask[2] && bias_sizes)};
}

// Elementwise activations (ReLU, Hardswish; ReLU6 is hardtanh): self's shape and dtype.
Tensor elementwise_meta(const Tensor& self) { return at::empty_like(self); }
Tensor& elementwise_inplace_meta(Tensor& self) { return self; }
// abs (T5's relative position buckets): a complex tensor's is real.
Tensor abs_meta(const Tensor& self) {
  return at::empty_like(self, self.options().dtype(c10::toRealValueType(self.scalar_type())));
}
Tensor hardtanh_meta(const Tensor& self, const at::Scalar& /*min*/, const at::Scalar& /*max*/) {
  return at::empty_like(self);
}
Tensor& hardtanh_inplace_meta(Tensor& self, const at::Scalar& /*min*/, const at::Scalar& /*max*/) {
  return self;
}

// PReLU's kernel: self and the weight (one value, or one per channel) broadcast.
Tensor prelu_kernel_meta(const Tensor& self, const Tensor& weight) {
  return at::empty(at::infer_size(self.sizes(), weight.sizes()), self.options());
}

// Reflection and replication padding: padding's pairs widen the last dims, the last dim first.
Tensor pad_meta(const Tensor& self, IntArrayRef padding) {
  TORCH_CHECK(padding.size() % 2 == 0 && padding.size() / 2 <= self.sizes().size(), "padding size ",
              padding.size(), " does not fit a ", self.dim(), "-d input");
  std::vector<int64_t> shape = self.sizes().vec();
  for (size_t i = 0; i < padding.size() / 2; ++i)
    shape[shape.size() - 1 - i] += padding[2 * i] + padding[2 * i + 1];
  return at::empty(shape, self.options());
}

// torch.var_mean (a GroupNorm's statistics in an export): both reduced over `dim` (every dim when
// none is given), the variance real for a complex input.
std::tuple<Tensor, Tensor> var_mean_meta(const Tensor& self, at::OptionalIntArrayRef dim,
                                         const std::optional<at::Scalar>& /*correction*/,
                                         bool keepdim) {
  std::vector<bool> reduced(self.sizes().size(), !dim.has_value() || dim->empty());
  if (dim.has_value())
    for (int64_t d : *dim) reduced[static_cast<size_t>(at::maybe_wrap_dim(d, self.dim()))] = true;
  std::vector<int64_t> shape;
  for (size_t i = 0; i < reduced.size(); ++i)
    if (!reduced[i] || keepdim) shape.push_back(reduced[i] ? 1 : self.sizes()[i]);
  const at::ScalarType real = c10::toRealValueType(self.scalar_type());
  return {at::empty(shape, self.options().dtype(real)), at::empty(shape, self.options())};
}

// Output, and the saved mean and inverse std ([C] in training, empty in eval), as the CPU's.
std::tuple<Tensor, Tensor, Tensor> native_batch_norm_meta(
    const Tensor& input, const OptionalTensor& /*weight*/, const OptionalTensor& /*bias*/,
    const OptionalTensor& /*running_mean*/, const OptionalTensor& /*running_var*/, bool training,
    double /*momentum*/, double /*eps*/) {
  const int64_t saved = training ? input.size(1) : 0;
  return {at::empty_like(input), at::empty({saved}, input.options()),
          at::empty({saved}, input.options())};
}

// torch.export's eval batch norm (_native_batch_norm_legit_no_training) comes here.
std::tuple<Tensor, Tensor, Tensor> native_batch_norm_legit_meta(
    const Tensor& input, const OptionalTensor& weight, const OptionalTensor& bias,
    Tensor& running_mean, Tensor& running_var, bool training, double momentum, double eps) {
  return native_batch_norm_meta(input, weight, bias, running_mean, running_var, training, momentum,
                                eps);
}

std::tuple<Tensor, Tensor, Tensor> native_batch_norm_backward_meta(
    const Tensor& grad_out, const Tensor& input, const OptionalTensor& weight,
    const OptionalTensor& /*running_mean*/, const OptionalTensor& /*running_var*/,
    const OptionalTensor& /*save_mean*/, const OptionalTensor& /*save_invstd*/, bool /*train*/,
    double /*eps*/, std::array<bool, 3> mask) {
  const auto channels = [&](bool wanted) {
    return wanted ? at::empty({input.size(1)}, grad_out.options()) : Tensor();
  };
  return {mask[0] ? at::empty_like(input) : Tensor(), channels(mask[1] && weight.has_value()),
          channels(mask[2])};
}

Tensor adaptive_avg_pool2d_meta(const Tensor& self, IntArrayRef output_size) {
  std::vector<int64_t> shape = self.sizes().vec();
  shape[shape.size() - 2] = output_size[0];
  shape[shape.size() - 1] = output_size.size() > 1 ? output_size[1] : output_size[0];
  return at::empty(shape, self.options());
}

Tensor adaptive_avg_pool2d_backward_meta(const Tensor& /*grad_output*/, const Tensor& self) {
  return at::empty_like(self);
}

// aten::embedding's forward on the CPU: self's shape, dim sized by the index's element count.
// The index's values are not checked (a meta tensor has none), as PyTorch's own meta kernel.
Tensor index_select_meta(const Tensor& self, int64_t dim, const Tensor& index) {
  TORCH_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  TORCH_CHECK(index.scalar_type() == at::kLong || index.scalar_type() == at::kInt,
              "index_select(): Expected dtype int32 or int64 for index");
  std::vector<int64_t> shape = self.sizes().vec();
  if (!shape.empty())
    shape[static_cast<size_t>(at::maybe_wrap_dim(dim, self.dim()))] = index.numel();
  return at::empty(shape, self.options());
}

// scaled_dot_product_attention's math path: a softmax whose all-masked rows are zeros (its CPU
// code goes through where's out variant, which has no meta kernel).
Tensor safe_softmax_meta(const Tensor& self, int64_t dim, std::optional<at::ScalarType> dtype) {
  at::maybe_wrap_dim(dim, self.dim());
  return at::empty_like(self, self.options().dtype(dtype.value_or(self.scalar_type())));
}

// torch.where: the three shapes broadcast, self's and other's dtypes promoted (a number or a
// 0-dim tensor as a scalar), as the CPU kernel's TensorIterator does.
Tensor where_meta(const Tensor& condition, const Tensor& self, const Tensor& other) {
  TORCH_CHECK(condition.scalar_type() == at::kBool || condition.scalar_type() == at::kByte,
              "where expected condition to be a boolean tensor, but got a tensor with dtype ",
              condition.scalar_type());
  const auto shape = at::infer_size(at::infer_size(condition.sizes(), self.sizes()), other.sizes());
  return at::empty(shape, self.options().dtype(at::result_type(self, other)));
}

// A decomposed export's attention mask (core ATen IR): its CPU kernel goes through the out variant.
Tensor logical_not_meta(const Tensor& self) {
  return at::empty_like(self, self.options().dtype(at::kBool));
}

// Weight norm's fused kernel (a parametrizations.weight_norm in an exported program): w has v's
// shape, the norms g's, in float for a reduced-precision v, as the CPU kernel makes them.
std::tuple<Tensor, Tensor> weight_norm_interface_meta(const Tensor& v, const Tensor& g,
                                                      int64_t /*dim*/) {
  const auto norms = c10::isReducedFloatingType(v.scalar_type()) ? at::kFloat : v.scalar_type();
  return {at::empty_like(v), at::empty_like(g, g.options().dtype(norms))};
}

void register_all(torch::Library& m) {
  m.impl("convolution", convolution_meta);
  m.impl("_convolution", traced_convolution_meta);
  m.impl("convolution_backward", convolution_backward_meta);
  m.impl("relu", elementwise_meta);
  m.impl("abs", abs_meta);
  m.impl("relu_", elementwise_inplace_meta);
  m.impl("hardswish", elementwise_meta);
  m.impl("hardswish_", elementwise_inplace_meta);
  m.impl("hardtanh", hardtanh_meta);
  m.impl("hardtanh_", hardtanh_inplace_meta);
  m.impl("_prelu_kernel", prelu_kernel_meta);
  for (const char* pad : {"reflection_pad1d", "reflection_pad2d", "reflection_pad3d",
                          "replication_pad1d", "replication_pad2d", "replication_pad3d"})
    m.impl(pad, pad_meta);
  m.impl("var_mean.correction", var_mean_meta);
  m.impl("native_batch_norm", native_batch_norm_meta);
  m.impl("_native_batch_norm_legit", native_batch_norm_legit_meta);
  m.impl("native_batch_norm_backward", native_batch_norm_backward_meta);
  m.impl("_adaptive_avg_pool2d", adaptive_avg_pool2d_meta);
  m.impl("_adaptive_avg_pool2d_backward", adaptive_avg_pool2d_backward_meta);
  m.impl("index_select", index_select_meta);
  m.impl("_safe_softmax", safe_softmax_meta);
  m.impl("where.self", where_meta);
  m.impl("logical_not", logical_not_meta);
  m.impl("_weight_norm_interface", weight_norm_interface_meta);
}

}  // namespace

void register_meta_kernels() {
  static const auto library = [] {
    auto lib = std::make_unique<torch::Library>(torch::Library::IMPL, "aten",
                                                c10::DispatchKey::Meta, __FILE__, __LINE__);
    register_all(*lib);
    return lib;
  }();
}

}  // namespace modrec
