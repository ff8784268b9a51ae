#include "instrument/pt2/auto_functionalized.h"

#include <ATen/ATen.h>
#include <doctest/doctest.h>

#include "instrument/pt2/node_args.h"

using namespace modrec::pt2;

namespace {

// auto_functionalized_v2(aten.add_.Tensor, other=..., _self_base_index=0, _all_bases=[base], ...)
std::vector<c10::IValue> add_(const at::Tensor& base, const at::Tensor& other,
                              std::vector<std::string> view_names = {},
                              std::vector<c10::IValue> view_values = {}) {
  std::vector<std::string> names{"", "other", "alpha", "_self_base_index", "_all_bases"};
  std::vector<c10::IValue> values{std::string("torch.ops.aten.add_.Tensor"), other, 2, 0,
                                  std::vector<at::Tensor>{base}};
  names.insert(names.end(), view_names.begin(), view_names.end());
  values.insert(values.end(), view_values.begin(), view_values.end());
  return run_auto_functionalized(names, values);
}

}  // namespace

TEST_CASE("the operator mutates a copy of its argument's base, returned after its results") {
  const at::Tensor base = at::arange(6.0).reshape({2, 3}), other = at::ones({2, 3});
  const std::vector<c10::IValue> out = add_(base, other);
  REQUIRE(out.size() == 2);  // add_'s result (self), then the base after the call
  CHECK(at::equal(base, at::arange(6.0).reshape({2, 3})));  // untouched
  CHECK(at::equal(out[1].toTensor(), base + 2 * other));
}

TEST_CASE("a mutated view is regenerated from the base's copy: a slice, as_strided") {
  const at::Tensor base = at::zeros({2, 3});
  std::vector<c10::IValue> out =
      add_(base, at::ones({1, 3}), {"_self_slice_dim", "_self_slice_start", "_self_slice_end"},
           {0, 1, 2});
  CHECK(at::equal(out.back().toTensor(), at::cat({at::zeros({1, 3}), 2 * at::ones({1, 3})})));
  out = add_(base, at::ones({2}), {"_self_size", "_self_stride", "_self_storage_offset"},
             {std::vector<int64_t>{2}, std::vector<int64_t>{3}, 1});  // the second column
  CHECK(at::equal(out.back().toTensor().select(1, 1), at::full({2}, 2.0)));
  CHECK(out.back().toTensor().sum().item<double>() == 4.0);
}

TEST_CASE("an operator LibTorch lacks is an UnsupportedArgument naming it") {
  const std::vector<c10::IValue> values{std::string("torch.ops.nolib.op_.default")};
  CHECK_THROWS_WITH_AS(run_auto_functionalized({""}, values),
                       doctest::Contains("torch.ops.nolib.op_.default"), UnsupportedArgument);
}
