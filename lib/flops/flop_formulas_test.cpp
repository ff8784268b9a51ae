#include "flops/flop_formulas.h"

#include <doctest/doctest.h>

namespace modrec {
namespace {
OpArg t(Shape s) { return OpArg::tensor(std::move(s)); }
OpArg none() { return {}; }
}  // namespace

// Expected values: FlopCounterMode's totals on the same shapes (torch 2.14.1), or its formulas
// by hand.
TEST_CASE("matrix products: 2*m*n*k, the bias of addmm/baddbmm not counted") {
  CHECK(op_flops("aten::mm", {t({3, 4}), t({4, 5})}, {t({3, 5})}) == 2 * 3 * 4 * 5);
  CHECK(op_flops("aten::addmm", {t({5}), t({3, 4}), t({4, 5})}, {}) == 120);
  CHECK(op_flops("aten::bmm", {t({2, 3, 4}), t({2, 4, 5})}, {}) == 240);
  CHECK(op_flops("aten::baddbmm", {t({2, 3, 5}), t({2, 3, 4}), t({2, 4, 5})}, {}) == 240);
}

TEST_CASE("convolution: output positions x kernel x batch x channels x 2; transposed over input") {
  // resnet18's conv1 on 1x3x224x224: 236,027,904 FLOPs (FlopCounterMode).
  const std::vector<OpArg> args = {t({1, 3, 224, 224}), t({64, 3, 7, 7}),    none(),
                                   OpArg::ints({2, 2}), OpArg::ints({3, 3}), OpArg::ints({1, 1}),
                                   OpArg::number(0)};
  CHECK(op_flops("aten::convolution", args, {t({1, 64, 112, 112})}) == 236027904);
  // ConvTranspose2d(4, 2, 3) on 1x4x5x5: 3,600 FLOPs (FlopCounterMode).
  std::vector<OpArg> transposed = {t({1, 4, 5, 5}), t({4, 2, 3, 3}), none(),          none(),
                                   none(),          none(),          OpArg::number(1)};
  CHECK(op_flops("aten::convolution", transposed, {t({1, 2, 7, 7})}) == 3600);
}

TEST_CASE("convolution backward: grad_input and grad_weight as the mask asks") {
  std::vector<OpArg> args = {t({1, 64, 112, 112}),
                             t({1, 3, 224, 224}),
                             t({64, 3, 7, 7}),
                             none(),
                             none(),
                             none(),
                             none(),
                             OpArg::number(0),
                             none(),
                             none(),
                             OpArg::ints({0, 1, 0})};
  const std::vector<OpArg> results = {none(), t({64, 3, 7, 7}), none()};
  // grad_weight: x convolved with grad_out, batch and channels swapped: as many as the forward.
  CHECK(op_flops("aten::convolution_backward", args, results) == 236027904);
  args[10] = OpArg::ints({1, 1, 0});
  CHECK(op_flops("aten::convolution_backward", args,
                 {t({1, 3, 224, 224}), t({64, 3, 7, 7}), none()}) ==
        472055808);  // FlopCounterMode's backward of that conv with x requiring grad
}

TEST_CASE("attention: two batched products forward, five backward") {
  const Shape q = {2, 4, 8, 16};
  const int64_t one = 2 * 4 * 8 * 8 * 2 * 16;  // (b*h) x s_q x s_k x 2 x d
  CHECK(op_flops("aten::_scaled_dot_product_flash_attention", {t(q), t(q), t(q)}, {}) == 2 * one);
  CHECK(op_flops("aten::_scaled_dot_product_efficient_attention_backward", {t(q), t(q), t(q), t(q)},
                 {}) == 5 * one);
  // The flash kernel takes (batch, seq, heads, dim).
  const Shape bshd = {2, 8, 4, 16};
  CHECK(op_flops("aten::_flash_attention_forward", {t(bshd), t(bshd), t(bshd), none()}, {}) ==
        2 * one);
}

TEST_CASE("no formula, or arguments the formula cannot read: nothing guessed") {
  CHECK_FALSE(has_flop_formula("aten::relu"));
  CHECK_FALSE(op_flops("aten::relu", {t({3})}, {t({3})}));
  CHECK_FALSE(has_flop_formula("aten::_scaled_dot_product_flash_attention_for_cpu"));
  CHECK_FALSE(op_flops("aten::mm", {t({3, 4}), none()}, {}));
  const Shape bshd = {2, 8, 4, 16};
  CHECK_FALSE(op_flops("aten::_flash_attention_forward", {t(bshd), t(bshd), t(bshd), t({3})},
                       {}));  // nested: offsets given
}

}  // namespace modrec
