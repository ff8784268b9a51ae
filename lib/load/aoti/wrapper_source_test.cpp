#include "load/aoti/wrapper_source.h"

#include <doctest/doctest.h>

using namespace modrec::aoti;

namespace {

// Lines of the wrapper.cpp aoti_compile_and_package wrote (torch 2.14.1) for a 4 -> 8 -> 3 MLP
// compiled for a (4, 4) input.
const char* const kWrapper = R"wrapper(
AOTInductorModel::AOTInductorModel(std::shared_ptr<ConstantMap> constants_map,
    : AOTInductorModelBase(1,
                           2,
                           true) {
  inputs_info_[0].name = "arg4_1";
  constants_info_[0].name = "fc1_weight";
  constants_info_[0].dtype = cached_torch_dtype_float32;
  constants_info_[0].data_size = 128;
  constants_info_[0].from_folded = false;
  constants_info_[0].shape = {8, 4};
  constants_info_[0].stride = {4, 1};
  constants_info_[0].original_fqn = "fc1.weight";
  constants_info_[1].name = "fc2_weight";
  constants_info_[1].dtype = cached_torch_dtype_bfloat16;
  constants_info_[1].shape = {3, 8};
  constants_info_[1].original_fqn = "fc2.weight";
  in_spec_ = R"([1, {"type": null, "context": null, "children_spec": []}])";
  out_spec_ = R"([1, {"type": null, )"
              R"("context": null, "children_spec": []}])";
  outputs_info_[0].name = "output0";
}
AOTI_NOINLINE static void check_input_0(
    AtenTensorHandle* input_handles
) {
  int32_t arg4_1_expected_dtype = aoti_torch_dtype_float32();
  if (arg4_1_expected_dtype != arg4_1_dtype) {
    ss << "input_handles[0]: unmatched dtype, "
  }
  if (4 != arg4_1_size[0]) {
    ss << "input_handles[0]: unmatched dim value at 0, "
       << "expected: 4, "
       << "but got: " << arg4_1_size[0]
  }
  if (arg4_1_size[1] < 2) {
    ss << "input_handles[0]: dim value is too small at 1, "
       << "expected it to be >= 2, "
       << "but got: "
  }
  if (arg4_1_size[1] > 9223372036854775807) {
    ss << "input_handles[0]: dim value is too large at 1, "
       << "expected to be <= 9223372036854775807, "
       << "but got: "
  }
  if (1 != arg4_1_stride[2]) {
    ss << "input_handles[0]: unmatched stride value at 2, "
       << "expected: 1, "
       << "but got: " << arg4_1_stride[2]
  }
}
)wrapper";

}  // namespace

TEST_CASE("the constants, their model names, dtypes and shapes are read from the source") {
  const WrapperSource w = parse_wrapper_source(kWrapper);
  REQUIRE(w.constants.size() == 2);
  CHECK(w.constants[0].name == "fc1_weight");
  CHECK(w.constants[0].original_fqn == "fc1.weight");
  CHECK(w.constants[0].dtype == "float32");
  CHECK(w.constants[0].shape == std::vector<int64_t>{8, 4});
  CHECK_FALSE(w.constants[0].from_folded);
  CHECK(w.constants[1].dtype == "bfloat16");
  CHECK(w.constants[1].shape == std::vector<int64_t>{3, 8});
  CHECK(w.in_spec == R"([1, {"type": null, "context": null, "children_spec": []}])");
  CHECK(w.out_spec == R"([1, {"type": null, "context": null, "children_spec": []}])");
}

TEST_CASE("an input's dtype, static sizes, bounds and number of dimensions come from its checks") {
  const WrapperSource w = parse_wrapper_source(kWrapper);
  REQUIRE(w.inputs.size() == 1);
  const CompiledInput& in = w.inputs[0];
  CHECK(in.name == "arg4_1");
  CHECK(in.dtype == "float32");
  REQUIRE(in.dims.size() == 3);
  CHECK(in.dims[0].size == 4);
  CHECK_FALSE(in.dims[1].size);
  CHECK(in.dims[1].min == 2);
  CHECK(in.dims[1].max == INT64_MAX);
  CHECK_FALSE(in.dims[2].size);
}

TEST_CASE("a statement the parser cannot read names its line") {
  CHECK_THROWS_WITH(parse_wrapper_source("x\n  constants_info_[0].shape = {8, four};\n"),
                    "line 2: cannot read the shape");
  CHECK_THROWS_WITH(parse_wrapper_source("constants_info_[1].name = \"b\";"),
                    "line 1: constants_info_ is not numbered in order");
  CHECK_THROWS_WITH(parse_wrapper_source("constants_info_[0].shape = {1};"),
                    "constant  has no name or no dtype");
  CHECK(parse_wrapper_source("for (auto& c : constants_info_) {}").constants.empty());
}
