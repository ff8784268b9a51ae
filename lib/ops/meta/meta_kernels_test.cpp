#include "ops/meta/meta_kernels.h"

#include <ATen/ATen.h>
#include <doctest/doctest.h>

using namespace modrec;

namespace {

at::Tensor meta(const at::Tensor& t) { return t.to(at::kMeta); }

// The meta kernel's output has the CPU kernel's shape and dtype: LibTorch's CPU kernels are the
// oracle.
void check_like(const at::Tensor& on_meta, const at::Tensor& on_cpu) {
  CHECK(on_meta.is_meta());
  CHECK(on_meta.sizes().vec() == on_cpu.sizes().vec());
  CHECK((on_meta.scalar_type() == on_cpu.scalar_type()));
}

}  // namespace

TEST_CASE("the meta kernels give the CPU kernels' shapes and dtypes") {
  register_meta_kernels();
  const at::Tensor x = at::randn({2, 3, 8, 8}), w = at::randn({4, 3, 3, 3});
  check_like(at::convolution(meta(x), meta(w), {}, {2}, {1}, {1}, false, {0}, 1),
             at::convolution(x, w, {}, {2}, {1}, {1}, false, {0}, 1));
  check_like(at::_convolution(meta(x), meta(w), {}, {1}, {0}, {1}, false, {0}, 1, false, false,
                              true, true),
             at::_convolution(x, w, {}, {1}, {0}, {1}, false, {0}, 1, false, false, true, true));
  check_like(at::relu(meta(x)), at::relu(x));
  check_like(at::hardtanh(meta(x), 0, 6), at::hardtanh(x, 0, 6));
  check_like(at::hardswish(meta(x)), at::hardswish(x));
  for (const at::Tensor& t : {x, x.to(at::kLong), at::complex(x, x)})
    check_like(at::abs(meta(t)), at::abs(t));
  check_like(at::_prelu_kernel(meta(x), meta(at::rand({3, 1, 1}))),
             at::_prelu_kernel(x, at::rand({3, 1, 1})));
  check_like(at::reflection_pad2d(meta(x), {1, 2, 3, 0}), at::reflection_pad2d(x, {1, 2, 3, 0}));
  check_like(at::replication_pad1d(meta(x[0]), {2, 1}), at::replication_pad1d(x[0], {2, 1}));
  for (const bool keepdim : {false, true}) {
    const auto [var, mean] = at::var_mean(meta(x), at::IntArrayRef{1, -1}, 1, keepdim);
    const auto [cpu_var, cpu_mean] = at::var_mean(x, at::IntArrayRef{1, -1}, 1, keepdim);
    check_like(var, cpu_var);
    check_like(mean, cpu_mean);
  }
  check_like(std::get<0>(at::var_mean(meta(at::randn({2, 3}, at::kComplexFloat)), std::nullopt,
                                      std::nullopt, false)),
             std::get<0>(at::var_mean(at::randn({2, 3}, at::kComplexFloat), std::nullopt,
                                      std::nullopt, false)));
  for (const auto dtype : {at::kFloat, at::kBFloat16}) {  // the norms in float for bfloat16
    const at::Tensor v = at::randn({8, 4, 3}).to(dtype), g = at::randn({1, 1, 3}).to(dtype);
    const auto [w, norms] = at::_weight_norm_interface(meta(v), meta(g), 2);
    const auto [w_cpu, norms_cpu] = at::_weight_norm_interface(v, g, 2);
    check_like(w, w_cpu);
    check_like(norms, norms_cpu);
  }
  check_like(at::adaptive_avg_pool2d(meta(x), {3, 2}), at::adaptive_avg_pool2d(x, {3, 2}));

  const at::Tensor table = at::randn({50, 16}), ids = at::randint(50, {2, 7});
  check_like(at::embedding(meta(table), meta(ids)), at::embedding(table, ids));
  const at::Tensor pick = at::tensor({1, 0, 1}, at::kInt);
  check_like(at::index_select(meta(table), -1, meta(pick)), at::index_select(table, -1, pick));
  check_like(at::index_select(meta(at::ones({})), 0, meta(at::zeros({1}, at::kLong))),
             at::index_select(at::ones({}), 0, at::zeros({1}, at::kLong)));
  CHECK_THROWS(at::index_select(meta(table), 0, meta(at::zeros({2, 2}, at::kLong))));

  const at::Tensor c = at::rand({3, 1}) > 0.5, a = at::randn({1, 4}, at::kBFloat16);
  check_like(at::where(meta(c), meta(a), 2.5), at::where(c, a, 2.5));
  check_like(at::where(meta(c), meta(a), meta(at::ones({4}, at::kDouble))),
             at::where(c, a, at::ones({4}, at::kDouble)));
  CHECK_THROWS(at::where(meta(at::ones({3})), meta(a), meta(a)));
  check_like(at::logical_not(meta(a)), at::logical_not(a));

  const at::Tensor q = at::randn({2, 4, 7, 8}), k = at::randn({2, 4, 5, 8}),
                   v = at::randn({2, 4, 5, 6});
  check_like(at::scaled_dot_product_attention(meta(q), meta(k), meta(v)),
             at::scaled_dot_product_attention(q, k, v));
  check_like(at::_safe_softmax(meta(q), -1, at::kDouble), at::_safe_softmax(q, -1, at::kDouble));
}
