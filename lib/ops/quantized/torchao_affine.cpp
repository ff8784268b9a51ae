// torchao:: quantize_affine, dequantize_affine and choose_qparams_affine as torchao 0.18's
// quantization/quant_primitives.py defines them (the operators its PT2E convert and its affine
// observers write), CompositeImplicitAutograd as there: autograd goes through their ATen calls,
// and through _Round, torchao's rounding with a straight-through gradient.
#include <ATen/ATen.h>
#include <c10/util/Float8_e4m3fn.h>
#include <c10/util/Float8_e4m3fnuz.h>
#include <c10/util/Float8_e5m2.h>
#include <c10/util/Float8_e5m2fnuz.h>
#include <torch/csrc/autograd/custom_function.h>

#include <limits>
#include <string>
#include <vector>

#include "ops/quantized/quantized_kernels.h"

namespace modrec::pt2 {
namespace {

using at::Scalar;
using at::ScalarType;
using at::Tensor;
using OptionalScalar = std::optional<Scalar>;

// _Round: torch.round forward, the gradient passed through unchanged.
class Round : public torch::autograd::Function<Round> {
 public:
  static Tensor forward(torch::autograd::AutogradContext* /*ctx*/, const Tensor& x) {
    return at::round(x);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* /*ctx*/,
                                                 torch::autograd::variable_list grads) {
    return grads;
  }
};

template <class T>
std::pair<Scalar, Scalar> finite_range() {
  const double max = static_cast<double>(static_cast<float>(std::numeric_limits<T>::max()));
  return {-max, max};
}

bool is_sub_byte_uint(ScalarType t) { return t >= ScalarType::UInt1 && t <= ScalarType::UInt7; }

// The bounds of _get_and_check_qmin_qmax: torch.finfo's for float8, else _DTYPE_TO_QVALUE_BOUNDS
// (sub-byte types included).
std::pair<Scalar, Scalar> dtype_bounds(ScalarType t) {
  switch (t) {
    case at::kByte:
      return {0, 255};
    case at::kChar:
      return {-128, 127};
    case at::kShort:
      return {-(1 << 15), (1 << 15) - 1};
    case at::kInt:
      return {int64_t{std::numeric_limits<int32_t>::min()},
              int64_t{std::numeric_limits<int32_t>::max()}};
    case at::kFloat8_e4m3fn:
      return finite_range<c10::Float8_e4m3fn>();
    case at::kFloat8_e5m2:
      return finite_range<c10::Float8_e5m2>();
    case at::kFloat8_e4m3fnuz:
      return finite_range<c10::Float8_e4m3fnuz>();
    case at::kFloat8_e5m2fnuz:
      return finite_range<c10::Float8_e5m2fnuz>();
    default:
      break;
  }
  if (is_sub_byte_uint(t)) {
    const int bits = static_cast<int>(t) - static_cast<int>(ScalarType::UInt1) + 1;
    return {0, (int64_t{1} << bits) - 1};
  }
  TORCH_CHECK(t >= ScalarType::Int1 && t <= ScalarType::Int7, "Unsupported dtype: ", t);
  const int bits = static_cast<int>(t) - static_cast<int>(ScalarType::Int1) + 1;
  return {-(int64_t{1} << (bits - 1)), (int64_t{1} << (bits - 1)) - 1};
}

// _get_and_check_qmin_qmax: the given bounds, else the dtype's, within the dtype's.
std::pair<Scalar, Scalar> qmin_qmax(ScalarType dtype, const OptionalScalar& quant_min,
                                    const OptionalScalar& quant_max) {
  const auto [lower, upper] = dtype_bounds(dtype);
  const Scalar qmin = quant_min.value_or(lower), qmax = quant_max.value_or(upper);
  TORCH_CHECK(qmin.toDouble() >= lower.toDouble(),
              "quant_min out of bound for dtype, quant_min_lower_bound: ", lower,
              " quant_min: ", qmin);
  TORCH_CHECK(qmax.toDouble() <= upper.toDouble(),
              "quant_max out of bound for dtype, quant_max_upper_bound: ", upper,
              " quant_max: ", qmax);
  return {qmin, qmax};
}

// _get_reduction_params: the shape to view the input as, a block's dims split out, and the dims
// a block spans.
struct Reduction {
  std::vector<int64_t> shape, dims, reduced_shape;  // reduced_shape: shape with dims set to 1
};

Reduction reduction(c10::SymIntArrayRef block_size_in, at::IntArrayRef input_size) {
  const at::IntArrayRef block_size = C10_AS_INTARRAYREF_SLOW(block_size_in);
  TORCH_CHECK(block_size.size() == input_size.size(), "Got input dim:", input_size.size(),
              ", block_size: ", block_size);
  Reduction r;
  for (size_t i = 0; i < block_size.size(); ++i) {
    const int64_t cur = static_cast<int64_t>(r.shape.size());
    if (block_size[i] != input_size[i] && block_size[i] > 1) {
      TORCH_CHECK(input_size[i] % block_size[i] == 0, "Expecting input size at ", i,
                  " dimension: ", input_size[i], " to be divisible by block_size at ", i,
                  " dimension: ", block_size[i]);
      r.shape.push_back(input_size[i] / block_size[i]);
      r.shape.push_back(block_size[i]);
      r.dims.push_back(cur + 1);
    } else {
      r.shape.push_back(input_size[i]);
      if (block_size[i] != 1) r.dims.push_back(cur);
    }
  }
  r.reduced_shape = r.shape;
  for (const int64_t d : r.dims) r.reduced_shape[static_cast<size_t>(d)] = 1;
  return r;
}

// torch.finfo(t).smallest_normal, the default eps.
double smallest_normal(ScalarType t) {
  if (t == at::kHalf) return static_cast<double>(std::numeric_limits<c10::Half>::min());
  if (t == at::kBFloat16) return static_cast<double>(std::numeric_limits<c10::BFloat16>::min());
  return static_cast<double>(std::numeric_limits<float>::min());
}

bool is_float(ScalarType t) { return t == at::kFloat || t == at::kHalf || t == at::kBFloat16; }

Tensor quantize_affine(const Tensor& input, c10::SymIntArrayRef block_size, const Tensor& scale,
                       const std::optional<Tensor>& zero_point, ScalarType output_dtype,
                       const OptionalScalar& quant_min_in, const OptionalScalar& quant_max_in) {
  const auto [quant_min, quant_max] = qmin_qmax(output_dtype, quant_min_in, quant_max_in);
  if (is_sub_byte_uint(output_dtype)) output_dtype = at::kByte;
  TORCH_CHECK(is_float(input.scalar_type()), "Unsupported input dtype: ", input.scalar_type());
  const Reduction r = reduction(block_size, input.sizes());
  const Tensor x = input.view(r.shape);
  // A zero point of no element stands for none, and adding none fails in Python too.
  TORCH_CHECK(zero_point && zero_point->numel() > 0,
              "unsupported operand type(s) for +: 'Tensor' and 'NoneType'");
  const Tensor quant = at::clamp(Round::apply(x * python_reciprocal(scale.view(r.reduced_shape))) +
                                     zero_point->view(r.reduced_shape),
                                 quant_min, quant_max);
  return quant.view(input.sizes()).to(output_dtype);
}

Tensor dequantize_affine(const Tensor& input, c10::SymIntArrayRef block_size, const Tensor& scale,
                         const std::optional<Tensor>& zero_point, ScalarType input_dtype,
                         const OptionalScalar& quant_min, const OptionalScalar& quant_max,
                         ScalarType output_dtype) {
  if (!is_sub_byte_uint(input_dtype))
    TORCH_CHECK(input.scalar_type() == input_dtype, "Expected: ", input_dtype,
                ", got: ", input.scalar_type());
  TORCH_CHECK(is_float(output_dtype), "Unsupported output dtype: ", output_dtype);
  qmin_qmax(input_dtype, quant_min, quant_max);
  const Reduction r = reduction(block_size, input.sizes());
  Tensor dequant = input.view(r.shape).to(output_dtype, false, /*copy=*/true);
  if (zero_point) dequant = dequant - zero_point->view(r.reduced_shape).to(output_dtype);
  dequant = dequant * scale.view(r.reduced_shape);
  return dequant.view(input.sizes()).to(output_dtype);
}

std::tuple<Tensor, Tensor> choose_qparams_affine(
    const std::optional<Tensor>& input_in, c10::string_view mapping_type,
    c10::SymIntArrayRef block_size_in, ScalarType target_dtype, const OptionalScalar& quant_min_in,
    const OptionalScalar& quant_max_in, std::optional<double> eps_in,
    std::optional<ScalarType> scale_dtype, std::optional<ScalarType> zero_point_dtype,
    bool keepdim) {
  const auto [quant_min, quant_max] = qmin_qmax(target_dtype, quant_min_in, quant_max_in);
  const std::string mapping(mapping_type);
  TORCH_CHECK(
      mapping == "SYMMETRIC" || mapping == "SYMMETRIC_NO_CLIPPING_ERR" || mapping == "ASYMMETRIC",
      "Unsupported mapping type: ", mapping);
  TORCH_CHECK(input_in, "choose_qparams_affine needs an input");
  const Tensor& input = *input_in;
  const double eps = eps_in.value_or(smallest_normal(input.scalar_type()));
  const Reduction r = reduction(block_size_in, input.sizes());
  const Tensor x = input.view(r.shape);
  const Tensor min_val = at::amin(x, r.dims, keepdim), max_val = at::amax(x, r.dims, keepdim);
  const Tensor min_val_neg = at::min(min_val, at::zeros_like(min_val));
  Tensor max_val_pos = at::max(max_val, at::zeros_like(max_val));
  const double qmin = quant_min.toDouble(), qmax = quant_max.toDouble();
  Tensor scale, zero_point;
  if (mapping != "ASYMMETRIC") {
    if (mapping == "SYMMETRIC") {
      max_val_pos = at::max(-min_val_neg, max_val_pos);
      scale = max_val_pos / ((qmax - qmin) / 2);
    } else {
      const Tensor smin = min_val_neg / qmin, smax = max_val_pos / qmax;
      scale = at::where(smin > smax, smin, smax);
    }
    zero_point = at::full_like(scale, static_cast<int64_t>((qmax + qmin + 1) / 2));
    scale = at::clamp(scale, eps);
  } else {
    scale = at::clamp((max_val_pos - min_val_neg) / (qmax - qmin), eps);
    zero_point =
        at::clamp(at::rsub(Round::apply(min_val_neg / scale), quant_min), quant_min, quant_max);
    if (!zero_point_dtype) zero_point_dtype = at::kInt;
  }
  if (keepdim) {
    const at::IntArrayRef block_size = C10_AS_INTARRAYREF_SLOW(block_size_in);
    std::vector<int64_t> shape;
    for (size_t i = 0; i < block_size.size(); ++i) shape.push_back(input.size(i) / block_size[i]);
    scale = scale.reshape(shape);
    zero_point = zero_point.reshape(shape);
  }
  return {scale.to(input.device(), scale_dtype.value_or(input.scalar_type())),
          zero_point_dtype ? zero_point.to(*zero_point_dtype) : zero_point};
}

}  // namespace

void define_torchao(OpDefiner& ops) {
  constexpr auto kImplicit = c10::DispatchKey::CompositeImplicitAutograd;
  ops.define(
      "quantize_affine(Tensor input, SymInt[] block_size, Tensor scale, Tensor? zero_point, "
      "ScalarType output_dtype, Scalar? quant_min=None, Scalar? quant_max=None) -> Tensor",
      kImplicit, quantize_affine);
  ops.define(
      "dequantize_affine(Tensor input, SymInt[] block_size, Tensor scale, Tensor? zero_point, "
      "ScalarType input_dtype, Scalar? quant_min=None, Scalar? quant_max=None, "
      "ScalarType output_dtype=6) -> Tensor",
      kImplicit, dequantize_affine);
  ops.define(
      "choose_qparams_affine(Tensor? input, str mapping_type, SymInt[] block_size, "
      "ScalarType target_dtype, Scalar? quant_min=None, Scalar? quant_max=None, "
      "float? eps=None, ScalarType? scale_dtype=None, ScalarType? zero_point_dtype=None, "
      "bool keepdim=False) -> (Tensor, Tensor)",
      kImplicit, choose_qparams_affine);
}

}  // namespace modrec::pt2
