#include "flops/flop_formulas.h"

#include <utility>
#include <functional>
#include <map>
#include <string>

namespace modrec {
namespace {

using Args = std::vector<OpArg>;
using Formula = std::function<std::optional<int64_t>(const Args&, const Args&)>;

int64_t product(const Shape& s, size_t from = 0) {
  int64_t p = 1;
  for (size_t i = from; i < s.size(); ++i) p *= s[i];
  return p;
}

const OpArg* arg(const Args& args, size_t i) { return i < args.size() ? &args[i] : nullptr; }

// The shape of tensor argument i with `dims` dimensions (any when dims is 0), or nullopt.
std::optional<Shape> shape(const Args& args, size_t i, size_t dims = 0) {
  const OpArg* a = arg(args, i);
  if (!a || a->kind != OpArg::Kind::tensor || (dims && a->values.size() != dims)) return {};
  return a->values;
}

bool flag(const Args& args, size_t i) {
  const OpArg* a = arg(args, i);
  return a && a->kind == OpArg::Kind::number && a->values[0] != 0;
}

int64_t mm(const Shape& a, const Shape& b) { return a[0] * b[1] * 2 * a[1]; }
int64_t bmm(const Shape& a, const Shape& b) { return a[0] * a[1] * b[2] * 2 * a[2]; }

// Matrix products: the two factors are tensor arguments `first` and `first + 1`.
Formula matmul(size_t first, size_t dims) {
  return [=](const Args& args, const Args&) -> std::optional<int64_t> {
    auto a = shape(args, first, dims), b = shape(args, first + 1, dims);
    if (!a || !b) return {};
    return dims == 2 ? mm(*a, *b) : bmm(*a, *b);
  };
}

// conv_flop_count: multiplications only, bias ignored; a transposed conv runs over the input.
int64_t conv(const Shape& x, const Shape& w, const Shape& out, bool transposed) {
  const Shape& spatial = transposed ? x : out;
  return product(spatial, 2) * product(w, 2) * x[0] * w[0] * w[1] * 2;
}

Shape swap01(Shape s) {
  std::swap(s[0], s[1]);
  return s;
}

// FlopCounterMode reads `transposed` as the 7th argument of every convolution it registers.
std::optional<int64_t> conv_forward(const Args& args, const Args& results) {
  auto x = shape(args, 0), w = shape(args, 1), out = shape(results, 0);
  if (!x || !w || !out || w->size() < 2) return {};
  return conv(*x, *w, *out, flag(args, 6));
}

std::optional<int64_t> conv_backward(const Args& args, const Args& results) {
  auto grad_out = shape(args, 0), x = shape(args, 1), w = shape(args, 2);
  const OpArg* mask = arg(args, 10);
  if (!grad_out || !x || !w || !mask || mask->values.size() < 2) return {};
  const bool transposed = flag(args, 7);
  int64_t flops = 0;
  if (mask->values[0]) {
    auto grad_x = shape(results, 0);
    if (!grad_x) return {};
    flops += conv(*grad_out, *w, *grad_x, !transposed);
  }
  if (mask->values[1]) {
    auto grad_w = shape(results, 1);
    if (!grad_w) return {};
    flops += transposed ? conv(swap01(*grad_out), swap01(*x), swap01(*grad_w), false)
                        : conv(swap01(*x), swap01(*grad_out), swap01(*grad_w), false);
  }
  return flops;
}

// sdpa_flop_count: q·kᵀ and attn·v over (batch, heads, seq, dim) tensors.
std::optional<int64_t> sdpa(const Shape& q, const Shape& k, const Shape& v) {
  if (q.size() != 4 || k.size() != 4 || v.size() != 4) return {};
  const int64_t bh = q[0] * q[1];
  return bmm({bh, q[2], q[3]}, {bh, q[3], k[2]}) + bmm({bh, q[2], k[2]}, {bh, k[2], v[3]});
}

std::optional<int64_t> sdpa_backward(const Shape& g, const Shape& q, const Shape& k,
                                     const Shape& v) {
  if (g.size() != 4 || q.size() != 4 || k.size() != 4 || v.size() != 4) return {};
  const int64_t bh = q[0] * q[1], sq = q[2], dq = q[3], sk = k[2], dv = v[3];
  return bmm({bh, sq, dq}, {bh, dq, sk}) + bmm({bh, sq, dv}, {bh, dv, sk}) +
         bmm({bh, sk, sq}, {bh, sq, dv}) + bmm({bh, sq, sk}, {bh, sk, dq}) +
         bmm({bh, dq, sq}, {bh, sq, sk});
}

Shape swap12(Shape s) {  // (batch, seq, heads, dim) -> (batch, heads, seq, dim)
  if (s.size() == 4) std::swap(s[1], s[2]);
  return s;
}

bool is_none(const Args& args, size_t i) {
  const OpArg* a = arg(args, i);
  return !a || a->kind == OpArg::Kind::other;
}

// q, k, v start at `first`; `layout_bshd`: the kernel takes (batch, seq, heads, dim). Nested
// (variable-length) batches, given by offsets at `offsets`, would need the offsets' values.
Formula attention(size_t first, bool layout_bshd, size_t offsets) {
  return [=](const Args& args, const Args&) -> std::optional<int64_t> {
    auto q = shape(args, first), k = shape(args, first + 1), v = shape(args, first + 2);
    if (!q || !k || !v || (offsets && !is_none(args, offsets))) return {};
    if (layout_bshd) return sdpa(swap12(*q), swap12(*k), swap12(*v));
    return sdpa(*q, *k, *v);
  };
}

Formula attention_backward(bool layout_bshd, size_t offsets) {
  return [=](const Args& args, const Args&) -> std::optional<int64_t> {
    auto g = shape(args, 0), q = shape(args, 1), k = shape(args, 2), v = shape(args, 3);
    if (!g || !q || !k || !v || (offsets && !is_none(args, offsets))) return {};
    if (layout_bshd) return sdpa_backward(swap12(*g), swap12(*q), swap12(*k), swap12(*v));
    return sdpa_backward(*g, *q, *k, *v);
  };
}

const std::map<std::string, Formula, std::less<>>& formulas() {
  static const std::map<std::string, Formula, std::less<>> table = {
      {"aten::mm", matmul(0, 2)},
      {"aten::addmm", matmul(1, 2)},
      {"aten::_scaled_mm", matmul(0, 2)},
      {"aten::bmm", matmul(0, 3)},
      {"aten::baddbmm", matmul(1, 3)},
      {"aten::convolution", conv_forward},
      {"aten::_convolution", conv_forward},
      {"aten::cudnn_convolution", conv_forward},
      {"aten::_slow_conv2d_forward", conv_forward},
      {"aten::convolution_overrideable", conv_forward},
      {"aten::convolution_backward", conv_backward},
      {"aten::_scaled_dot_product_efficient_attention", attention(0, false, 0)},
      {"aten::_scaled_dot_product_flash_attention", attention(0, false, 0)},
      {"aten::_scaled_dot_product_cudnn_attention", attention(0, false, 0)},
      {"aten::_flash_attention_forward", attention(0, true, 3)},
      {"aten::_efficient_attention_forward", attention(0, false, 4)},
      {"aten::_scaled_dot_product_efficient_attention_backward", attention_backward(false, 0)},
      {"aten::_scaled_dot_product_flash_attention_backward", attention_backward(false, 0)},
      {"aten::_scaled_dot_product_cudnn_attention_backward", attention_backward(false, 0)},
      {"aten::_flash_attention_backward", attention_backward(true, 6)},
      {"aten::_efficient_attention_backward", attention_backward(false, 6)},
  };
  return table;
}

}  // namespace

bool has_flop_formula(std::string_view op) { return formulas().count(op) > 0; }

std::optional<int64_t> op_flops(std::string_view op, const std::vector<OpArg>& args,
                                const std::vector<OpArg>& results) {
  auto it = formulas().find(op);
  if (it == formulas().end()) return {};
  return it->second(args, results);
}

}  // namespace modrec
