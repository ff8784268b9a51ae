// quantized_decomposed:: as torch/ao/quantization/fx/_decomposed.py (torch 2.14) defines it: each
// kernel is its Python function's ATen calls in the same order, with the same Python numbers
// (a float argument is a double Scalar, `x.item()` a Scalar of the tensor's kind), so that the
// values are the same bits. The Python kernels' own checks are TORCH_CHECKs with their messages.
// A CompositeExplicitAutograd kernel also runs on meta tensors (summary's pass on shapes): where
// its Python kernel reads a value (`.item()`), the meta answer is that of its Python Meta kernel.
#include <ATen/ATen.h>

#include <limits>
#include <vector>

#include "ops/quantized/quantized_kernels.h"

namespace modrec::pt2 {
namespace {

using at::Scalar;
using at::ScalarType;
using at::Tensor;
using OptionalTensor = std::optional<Tensor>;
using OptionalType = std::optional<ScalarType>;

constexpr auto kExplicit = c10::DispatchKey::CompositeExplicitAutograd;
constexpr auto kImplicit = c10::DispatchKey::CompositeImplicitAutograd;

// _DTYPE_TO_QVALUE_BOUNDS: the integer dtypes' ranges, and the float8 ones' finite range.
std::optional<std::pair<int64_t, int64_t>> qvalue_bounds(ScalarType dtype) {
  switch (dtype) {
    case at::kByte:
      return {{0, 255}};
    case at::kChar:
      return {{-128, 127}};
    case at::kUInt16:
      return {{0, 65535}};
    case at::kShort:
      return {{-32768, 32767}};
    case at::kInt:
      return {{std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()}};
    case at::kFloat8_e5m2:
      return {{-57344, 57344}};
    case at::kFloat8_e4m3fn:
      return {{-448, 448}};
    default:
      return std::nullopt;
  }
}

// _quant_min_max_bounds_check
void check_bounds(const Scalar& quant_min, const Scalar& quant_max, ScalarType dtype) {
  const auto bounds = qvalue_bounds(dtype);
  TORCH_CHECK(bounds, "Unsupported dtype: ", dtype);
  TORCH_CHECK(quant_min.toDouble() >= static_cast<double>(bounds->first),
              "quant_min out of bounds for dtype, quant_min_lower_bound: ", bounds->first,
              " quant_min: ", quant_min);
  TORCH_CHECK(quant_max.toDouble() <= static_cast<double>(bounds->second),
              "quant_max out of bounds for dtype, quant_max_upper_bound: ", bounds->second,
              " quant_max: ", quant_max);
}

// float16 and bfloat16 inputs are quantized as float32; others are refused.
Tensor float32_input(const Tensor& input) {
  const Tensor x = input.scalar_type() == at::kHalf || input.scalar_type() == at::kBFloat16
                       ? input.to(at::kFloat)
                       : input;
  TORCH_CHECK(x.scalar_type() == at::kFloat,
              "Expecting input to have dtype torch.float32, but got dtype: ", x.scalar_type());
  return x;
}

void check_one_element(const Tensor& scale, const Tensor& zero_point) {
  TORCH_CHECK(zero_point.numel() == 1,
              "Expecting zero_point tensor to be one element, but received : ", zero_point.numel());
  TORCH_CHECK(scale.numel() == 1,
              "Expecting scale tensor to be one element, but received : ", scale.numel());
}

// Python's `t.item()`: an int or a float as the tensor holds. A meta tensor has no value: 1
// stands for it, which the result's shape and dtype do not depend on (summary's pass).
Scalar item(const Tensor& t) { return t.is_meta() ? Scalar(int64_t{1}) : t.item(); }

Tensor empty_of(const Tensor& like, ScalarType dtype) {
  return at::empty_like(like, like.options().dtype(dtype));
}

// quantize_per_tensor's Python function, with Python's numbers.
Tensor quantize(const Tensor& input, double scale, const Scalar& zero_point,
                const Scalar& quant_min, const Scalar& quant_max, ScalarType dtype) {
  const Tensor x = float32_input(input);
  check_bounds(quant_min, quant_max, dtype);
  // Python's `1.0 / scale` of a float 0 raises where C++'s gives inf: the same refusal here.
  TORCH_CHECK(scale != 0.0, "float division by zero (ZeroDivisionError: the scale is 0)");
  const double inv_scale = 1.0 / scale;
  return at::clamp(at::round(x * inv_scale) + zero_point, quant_min, quant_max).to(dtype);
}

Tensor quantize_per_tensor(const Tensor& input, double scale, int64_t zero_point, int64_t quant_min,
                           int64_t quant_max, ScalarType dtype) {
  return quantize(input, scale, zero_point, quant_min, quant_max, dtype);
}

Tensor quantize_per_tensor_tensor(const Tensor& input, const Tensor& scale,
                                  const Tensor& zero_point, int64_t quant_min, int64_t quant_max,
                                  ScalarType dtype) {
  check_one_element(scale, zero_point);
  return quantize(input, item(scale).toDouble(), item(zero_point), quant_min, quant_max, dtype);
}

Tensor quantize_per_tensor_tensor2(const Tensor& input, const Tensor& scale,
                                   const Tensor& zero_point, const Tensor& quant_min,
                                   const Tensor& quant_max, ScalarType dtype) {
  check_one_element(scale, zero_point);
  return quantize(input, item(scale).toDouble(), item(zero_point), item(quant_min), item(quant_max),
                  dtype);
}

// dequantize_per_tensor's Python function: quant_min and quant_max are not used.
Tensor dequantize(const Tensor& input, const Scalar& scale, const Scalar& zero_point,
                  ScalarType dtype, OptionalType out_dtype) {
  TORCH_CHECK(input.scalar_type() == dtype, "Expecting input to have dtype: ", dtype, ", but got ",
              input.scalar_type());
  TORCH_CHECK(qvalue_bounds(dtype), "Unsupported dtype in dequantize_per_tensor: ", dtype);
  return (input.to(out_dtype.value_or(at::kFloat)) - zero_point) * scale;
}

Tensor dequantize_per_tensor(const Tensor& input, double scale, int64_t zero_point,
                             int64_t /*quant_min*/, int64_t /*quant_max*/, ScalarType dtype,
                             OptionalType out_dtype) {
  return dequantize(input, scale, zero_point, dtype, out_dtype);
}

Tensor dequantize_per_tensor_tensor(const Tensor& input, const Tensor& scale,
                                    const Tensor& zero_point, int64_t /*quant_min*/,
                                    int64_t /*quant_max*/, ScalarType dtype,
                                    OptionalType out_dtype) {
  check_one_element(scale, zero_point);
  return dequantize(input, item(scale), item(zero_point), dtype, out_dtype);
}

Tensor dequantize_per_tensor_tensor2(const Tensor& input, const Tensor& scale,
                                     const Tensor& zero_point, const Tensor& quant_min,
                                     const Tensor& quant_max, ScalarType dtype,
                                     OptionalType out_dtype) {
  return dequantize_per_tensor_tensor(input, scale, zero_point, 0, 0, dtype, out_dtype);
}

// validate_qmin_qmax
void check_qmin_qmax(int64_t quant_min, int64_t quant_max) {
  TORCH_CHECK(quant_min <= 0 && 0 <= quant_max,
              "Used-specified quantization range must include 0.");
  TORCH_CHECK(quant_min < quant_max,
              "qmin must be strictly less than qmax for user-specified quantization range.");
}

// torch.ao.quantization.utils.determine_qparams for the 0-dim min and max of an input, without a
// customized range: per tensor affine, or symmetric. (Its refusal of an unobserved min = inf,
// max = -inf or of min > max cannot happen: these come from aminmax.)
std::tuple<Tensor, Tensor> determine_qparams(const Tensor& min_val, const Tensor& max_val,
                                             int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                             const Tensor& eps, bool symmetric) {
  const Tensor min_val_neg = at::min(min_val, at::zeros_like(min_val));
  Tensor max_val_pos = at::max(max_val, at::zeros_like(max_val));
  Tensor scale;
  Tensor zero_point = at::zeros(min_val_neg.sizes(), min_val.options().dtype(at::kLong));
  const double range = static_cast<double>(quant_max - quant_min);
  if (symmetric) {
    max_val_pos = at::max(-min_val_neg, max_val_pos);
    scale = at::max(max_val_pos / (range / 2), eps.to(min_val.device()));
    if (dtype == at::kByte) zero_point = zero_point.new_full(zero_point.sizes(), 128);
  } else {
    scale = at::max((max_val_pos - min_val_neg) / range, eps.to(min_val.device()));
    zero_point = at::rsub(at::round(min_val_neg / scale).to(at::kInt), quant_min);
    zero_point = at::clamp(zero_point, quant_min, quant_max);
  }
  if (zero_point.dim() == 0) zero_point = zero_point.reshape({1});  // as the scale: [1]
  return {scale.to(at::kDouble), zero_point.to(at::kLong)};
}

std::tuple<Tensor, Tensor> choose_qparams(const Tensor& input, int64_t quant_min, int64_t quant_max,
                                          double eps, ScalarType dtype, bool symmetric) {
  const ScalarType in = input.scalar_type();
  TORCH_CHECK(in == at::kFloat || in == at::kHalf || in == at::kBFloat16,
              "Expecting input to have dtype torch.float32/16/b16, but got dtype: ", in);
  TORCH_CHECK(qvalue_bounds(dtype),
              "Expecting target dtype to be one of the quantized dtypes, "
              "but got: ",
              dtype);
  if (input.is_meta())
    return {at::empty({1}, input.options().dtype(at::kDouble)),
            at::empty({1}, input.options().dtype(at::kLong))};
  check_qmin_qmax(quant_min, quant_max);
  const auto [min_val, max_val] = at::aminmax(input);
  return determine_qparams(min_val, max_val, quant_min, quant_max, dtype,
                           at::tensor({static_cast<float>(eps)}), symmetric);
}

std::tuple<Tensor, Tensor> choose_qparams_tensor(const Tensor& input, int64_t quant_min,
                                                 int64_t quant_max, double eps, ScalarType dtype) {
  return choose_qparams(input, quant_min, quant_max, eps, dtype, false);
}

std::tuple<Tensor, Tensor> choose_qparams_symmetric_tensor(const Tensor& input, int64_t quant_min,
                                                           int64_t quant_max, double eps,
                                                           ScalarType dtype) {
  return choose_qparams(input, quant_min, quant_max, eps, dtype, true);
}

// _permute_to_axis_zero's order: `axis` and 0 swapped (its own inverse).
std::vector<int64_t> axis_to_front(int64_t dims, int64_t axis) {
  std::vector<int64_t> order(static_cast<size_t>(dims));
  for (int64_t i = 0; i < dims; ++i) order[static_cast<size_t>(i)] = i;
  std::swap(order[0], order[static_cast<size_t>(axis)]);
  return order;
}

// [channels, 1, 1, ...]: a per-channel parameter against the input permuted to axis 0.
std::vector<int64_t> channel_shape(const Tensor& input, const Tensor& scales) {
  std::vector<int64_t> shape(static_cast<size_t>(input.dim()), 1);
  shape[0] = scales.size(0);
  return shape;
}

Tensor quantize_per_channel(const Tensor& input, const Tensor& scales, const Tensor& zero_points,
                            int64_t axis, int64_t quant_min, int64_t quant_max, ScalarType dtype) {
  Tensor x = float32_input(input);
  TORCH_CHECK(axis < x.dim(), "Expecting axis to be < ", x.dim());
  check_bounds(quant_min, quant_max, dtype);
  const auto order = axis_to_front(x.dim(), axis);
  x = x.permute(order);
  const auto shape = channel_shape(x, scales);
  const Tensor res =
      at::clamp(at::round(x * python_reciprocal(scales.view(shape))) + zero_points.view(shape),
                quant_min, quant_max);
  return res.permute(order).to(dtype);
}

Tensor dequantize_per_channel(const Tensor& input, const Tensor& scales,
                              const OptionalTensor& zero_points, int64_t axis, int64_t quant_min,
                              int64_t quant_max, ScalarType dtype, OptionalType out_dtype) {
  TORCH_CHECK(input.scalar_type() == dtype, "Expecting input to have dtype: ", dtype,
              ", but got dtype: ", input.scalar_type());
  TORCH_CHECK(axis < input.dim(), "Expecting axis to be < ", input.dim());
  check_bounds(quant_min, quant_max, dtype);
  const auto order = axis_to_front(input.dim(), axis);
  const Tensor x = input.permute(order);
  const auto shape = channel_shape(x, scales);
  const Tensor res =
      zero_points ? (x - zero_points->view(shape)) * scales.view(shape) : x * scales.view(shape);
  return res.to(out_dtype.value_or(at::kFloat)).permute(order);
}

// The Meta kernels of the per-token choose_qparams: float64 scales and int64 zero points of the
// input's shape with its last dim 1.
std::tuple<Tensor, Tensor> per_token_qparams_meta(const Tensor& input) {
  std::vector<int64_t> size = input.sizes().vec();
  size.back() = 1;
  return {at::empty(size, input.options().dtype(at::kDouble)),
          at::empty(size, input.options().dtype(at::kLong))};
}

std::tuple<Tensor, Tensor> choose_qparams_per_token(const Tensor& input, ScalarType dtype) {
  if (input.is_meta()) return per_token_qparams_meta(input);
  Tensor scales = input.abs().amax(-1, true);
  if (scales.scalar_type() == at::kHalf) scales = scales.to(at::kFloat);
  TORCH_CHECK(dtype == at::kChar, "unsupported dtype in choose_qparams_per_token: ", dtype);
  scales = scales.clamp(1e-5).div(127);
  return {scales, at::zeros_like(scales)};
}

// Based on XNNPACK's quantization.h, as the Python says.
std::tuple<Tensor, Tensor> choose_qparams_per_token_asymmetric_impl(const Tensor& input,
                                                                    ScalarType /*dtype*/) {
  const int64_t qmin = -128, qmax = 127;
  const Tensor min_val = at::amin(input, -1, true), max_val = at::amax(input, -1, true);
  const Tensor min_val_neg = at::min(min_val, at::zeros_like(min_val));
  const Tensor max_val_pos = at::max(max_val, at::zeros_like(max_val));
  const double eps = std::numeric_limits<float>::epsilon();
  const Tensor scale = ((max_val_pos - min_val_neg) / static_cast<double>(qmax - qmin)).clamp(eps);
  const Tensor descaled_min = min_val_neg / scale, descaled_max = max_val_pos / scale;
  const Tensor from_min_error = descaled_min + qmin, from_max_error = descaled_max + qmax;
  Tensor zero_point = at::where(from_min_error + from_max_error > 0, at::rsub(descaled_min, qmin),
                                at::rsub(descaled_max, qmax));
  zero_point = at::clamp(zero_point, qmin, qmax).round();
  return {scale.to(at::kDouble), zero_point.to(at::kLong)};
}

std::tuple<Tensor, Tensor> choose_qparams_per_token_asymmetric(const Tensor& input,
                                                               ScalarType dtype) {
  if (input.is_meta()) return per_token_qparams_meta(input);
  return choose_qparams_per_token_asymmetric_impl(input, dtype);
}

// _per_token_quant_qparam_dim_check
void check_per_token(const Tensor& input, const Tensor& scales, const Tensor& zero_points) {
  int64_t tokens = 1;
  for (int64_t d = 0; d + 1 < input.dim(); ++d) tokens *= input.size(d);
  TORCH_CHECK(tokens == scales.numel(), "num_tokens: ", tokens, " scales: ", scales.sizes());
  TORCH_CHECK(tokens == zero_points.numel(), "num_tokens: ", tokens,
              " zero_points: ", zero_points.sizes());
}

Tensor quantize_per_token(const Tensor& input, const Tensor& scales, const Tensor& zero_points,
                          int64_t quant_min, int64_t quant_max, ScalarType dtype) {
  check_bounds(quant_min, quant_max, dtype);
  check_per_token(input, scales, zero_points);
  return input.mul(python_reciprocal(scales))
      .add(zero_points)
      .round()
      .clamp(quant_min, quant_max)
      .to(dtype);
}

Tensor dequantize_per_token(const Tensor& input, const Tensor& scales, const Tensor& zero_points,
                            int64_t /*quant_min*/, int64_t /*quant_max*/, ScalarType /*dtype*/,
                            ScalarType output_dtype) {
  return ((input - zero_points) * scales).to(output_dtype);
}

// The group size the per-channel-group kernels use, after their checks.
int64_t checked_group_size(const Tensor& input, const Tensor& scales, int64_t group_size,
                           const char* name) {
  TORCH_CHECK(group_size > 1, "group_size must be > 1");
  const int64_t last = input.size(-1);
  if (group_size > last && scales.size(-1) == 1) group_size = last;  // GPTQ's single column
  TORCH_CHECK(last % group_size == 0, name, ".shape[-1] must be divisible by group_size");
  TORCH_CHECK(input.dim() == 2, name, " must be 2-dimensional");
  return group_size;
}

Tensor quantize_per_channel_group(const Tensor& input, const Tensor& scales,
                                  const Tensor& zero_points, int64_t quant_min, int64_t quant_max,
                                  ScalarType dtype, int64_t group_size) {
  group_size = checked_group_size(input, scales, group_size, "input");
  const Tensor to_quant = input.reshape({-1, group_size});
  if (input.is_meta()) return empty_of(input, dtype);
  TORCH_CHECK(at::isnan(to_quant).sum().item().toLong() == 0, "to_quant must not contain NaNs");
  return to_quant.mul(python_reciprocal(scales.reshape({-1, 1})))
      .add(zero_points.reshape({-1, 1}))
      .round()
      .clamp_(quant_min, quant_max)
      .to(dtype)
      .reshape_as(input);
}

Tensor dequantize_per_channel_group(const Tensor& input, const Tensor& scales,
                                    const OptionalTensor& zero_points, int64_t /*quant_min*/,
                                    int64_t /*quant_max*/, ScalarType /*dtype*/, int64_t group_size,
                                    ScalarType output_dtype) {
  group_size = checked_group_size(input, scales, group_size, "w_int8");
  const Tensor grouped = input.reshape({-1, group_size});
  const Tensor zp =
      zero_points ? zero_points->reshape({-1, 1}) : at::zeros({}, scales.options().dtype(at::kInt));
  return grouped.sub(zp).mul(scales.reshape({-1, 1})).reshape_as(input).to(output_dtype);
}

// FakeQuantPerChannel: the fake-quantized values, and the gradient only where the rounded value
// lay inside [quant_min, quant_max] (none to the scales and zero points).
class FakeQuantPerChannel : public torch::autograd::Function<FakeQuantPerChannel> {
 public:
  static Tensor forward(torch::autograd::AutogradContext* ctx, const Tensor& input,
                        const Tensor& scales_in, const Tensor& zero_points_in, int64_t axis,
                        int64_t quant_min, int64_t quant_max) {
    const Tensor scales =
        scales_in.scalar_type() == at::kFloat ? scales_in : scales_in.to(at::kFloat);
    const Tensor zero_points =
        zero_points_in.scalar_type() == at::kInt ? zero_points_in : zero_points_in.to(at::kInt);
    TORCH_CHECK(
        input.scalar_type() == at::kFloat,
        "Expecting input to have dtype torch.float32, but got dtype: ", input.scalar_type());
    TORCH_CHECK(axis < input.dim(), "Expecting axis to be < ", input.dim());
    std::vector<int64_t> shape(static_cast<size_t>(input.dim()), 1);
    shape[static_cast<size_t>(axis)] = scales.size(0);  // _unsqueeze_multiple around `axis`
    const Tensor s = scales.view(shape), zp = zero_points.view(shape);
    const Tensor temp = at::round(input * python_reciprocal(s)) + zp;
    ctx->save_for_backward({at::logical_and(temp >= quant_min, temp <= quant_max)});
    return (at::clamp(temp, quant_min, quant_max) - zp) * s;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const Tensor mask = ctx->get_saved_variables()[0];
    return {grads[0] * mask, Tensor(), Tensor(), Tensor(), Tensor(), Tensor()};
  }
};

Tensor fake_quant_per_channel(const Tensor& input, const Tensor& scales, const Tensor& zero_points,
                              int64_t axis, int64_t quant_min, int64_t quant_max) {
  return FakeQuantPerChannel::apply(input, scales, zero_points, axis, quant_min, quant_max);
}

// prims.convert_element_type: a new tensor of `dtype` holding the input's values.
Tensor convert_element_type(const Tensor& input, ScalarType dtype) {
  return empty_of(input, dtype).copy_(input);
}

}  // namespace

void define_quantized_decomposed(OpDefiner& ops) {
  ops.define(
      "quantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, "
      "int quant_max, ScalarType dtype) -> Tensor",
      kExplicit, quantize_per_tensor);
  ops.define(
      "quantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, int quant_min, "
      "int quant_max, ScalarType dtype) -> Tensor",
      kExplicit, quantize_per_tensor_tensor);
  ops.define(
      "quantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, "
      "Tensor quant_min, Tensor quant_max, ScalarType dtype) -> Tensor",
      kExplicit, quantize_per_tensor_tensor2);
  ops.define(
      "dequantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, "
      "int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
      kExplicit, dequantize_per_tensor);
  ops.define(
      "dequantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, "
      "int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
      kExplicit, dequantize_per_tensor_tensor);
  ops.define(
      "dequantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, "
      "Tensor quant_min, Tensor quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> "
      "Tensor",
      kExplicit, dequantize_per_tensor_tensor2);
  ops.define(
      "choose_qparams.tensor(Tensor input, int quant_min, int quant_max, float eps, "
      "ScalarType dtype) -> (Tensor, Tensor)",
      kExplicit, choose_qparams_tensor);
  ops.define(
      "choose_qparams_symmetric.tensor(Tensor input, int quant_min, int quant_max, float eps, "
      "ScalarType dtype) -> (Tensor, Tensor)",
      kExplicit, choose_qparams_symmetric_tensor);
  ops.define(
      "quantize_per_channel(Tensor input, Tensor scales, Tensor zero_points, int axis, "
      "int quant_min, int quant_max, ScalarType dtype) -> Tensor",
      kExplicit, quantize_per_channel);
  ops.define(
      "dequantize_per_channel(Tensor input, Tensor scales, Tensor? zero_points, int axis, "
      "int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor",
      kExplicit, dequantize_per_channel);
  ops.define("choose_qparams_per_token(Tensor input, ScalarType dtype) -> (Tensor, Tensor)",
             kExplicit, choose_qparams_per_token);
  ops.define(
      "_choose_qparams_per_token_asymmetric_impl(Tensor input, ScalarType dtype) -> "
      "(Tensor, Tensor)",
      kImplicit, choose_qparams_per_token_asymmetric_impl);
  ops.define(
      "choose_qparams_per_token_asymmetric(Tensor input, ScalarType dtype) -> (Tensor, Tensor)",
      kExplicit, choose_qparams_per_token_asymmetric);
  ops.define(
      "quantize_per_token(Tensor input, Tensor scales, Tensor zero_points, int quant_min, "
      "int quant_max, ScalarType dtype) -> Tensor",
      kExplicit, quantize_per_token);
  ops.define(
      "dequantize_per_token(Tensor input, Tensor scales, Tensor zero_points, int quant_min, "
      "int quant_max, ScalarType dtype, ScalarType output_dtype) -> Tensor",
      kExplicit, dequantize_per_token);
  ops.define(
      "quantize_per_channel_group(Tensor input, Tensor scales, Tensor zero_points, "
      "int quant_min, int quant_max, ScalarType dtype, int group_size) -> Tensor",
      kExplicit, quantize_per_channel_group);
  ops.define(
      "dequantize_per_channel_group(Tensor input, Tensor scales, Tensor? zero_points, "
      "int quant_min, int quant_max, ScalarType dtype, int group_size, "
      "ScalarType output_dtype) -> Tensor",
      kExplicit, dequantize_per_channel_group);
  // Python registers it for the Autograd key; as CompositeImplicitAutograd the autograd
  // function above records the same node.
  ops.define(
      "fake_quant_per_channel(Tensor input, Tensor scales, Tensor zero_points, int axis, "
      "int quant_min, int quant_max) -> Tensor",
      kImplicit, fake_quant_per_channel);
  ops.define("convert_element_type.no_fuse(Tensor input, ScalarType dtype) -> Tensor", kExplicit,
             convert_element_type);
}

}  // namespace modrec::pt2
