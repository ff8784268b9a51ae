#include "arguments/input_size_spec.h"

#include <doctest/doctest.h>

#include "tensor_files/test_fixtures.h"
#include "tensor_files/write_tensors.h"
#include "util/error.h"

using namespace modrec;

TEST_CASE("parse_input_spec reads shapes and dtypes") {
  InputSizeSpec a = parse_input_spec("1x3x224x224");
  CHECK((a.shape == std::vector<int64_t>{1, 3, 224, 224}));
  CHECK((a.dtype == at::kFloat));
  InputSizeSpec b = parse_input_spec("2x12:long");
  CHECK((b.shape == std::vector<int64_t>{2, 12}));
  CHECK((b.dtype == at::kLong));
  CHECK((parse_input_spec("7").shape == std::vector<int64_t>{7}));
  const std::pair<const char*, at::ScalarType> dtypes[] = {
      {"float", at::kFloat},       {"float32", at::kFloat}, {"double", at::kDouble},
      {"float64", at::kDouble},    {"half", at::kHalf},     {"float16", at::kHalf},
      {"bfloat16", at::kBFloat16}, {"long", at::kLong},     {"int64", at::kLong},
      {"int", at::kInt},           {"int32", at::kInt},     {"bool", at::kBool},
      {"uint8", at::kByte},        {"int8", at::kChar},     {"int16", at::kShort},
  };
  for (const auto& [name, type] : dtypes)
    CHECK((parse_input_spec(std::string("3:") + name).dtype == type));
}

TEST_CASE("bad specs are usage errors naming --input-size") {
  for (const char* bad : {"", "x3", "3x", "3xx4", "-1x3", "3x4:", "3x4:float8", "3x4.5", "a", "3,4",
                          "1x2:long:int", "0x3", "2x0"}) {
    INFO(bad);
    try {
      parse_input_spec(bad);
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.code() == Exit::usage);
      CHECK(e.where() == "--input-size");
      CHECK(e.hint() == "use e.g. 1x3x224x224 or 2x12:long");
    }
  }
}

TEST_CASE("random inputs: deterministic, integers in [0, high), usage error for high < 1") {
  std::vector<InputSizeSpec> specs = {parse_input_spec("50x40:long"), parse_input_spec("3x3:half"),
                                      parse_input_spec("10:bool")};
  auto a = random_inputs(specs, 3, 5);
  auto b = random_inputs(specs, 3, 5);
  for (size_t i = 0; i < a.size(); ++i) CHECK(at::equal(a[i], b[i]));
  CHECK(a[0].min().item<int64_t>() == 0);
  CHECK(a[0].max().item<int64_t>() == 4);
  CHECK((a[1].scalar_type() == at::kHalf));
  CHECK((random_inputs({parse_input_spec("4:float8_e4m3fn")}, 3, 5)[0].scalar_type() ==
         at::kFloat8_e4m3fn));  // drawn in float32, as half and bfloat16 are
  CHECK((a[2].scalar_type() == at::kBool));
  CHECK_FALSE(at::equal(random_inputs(specs, 4, 5)[0], a[0]));
  CHECK_THROWS_AS(random_inputs(specs, 0, 0), Error);
}

TEST_CASE("random inputs equal Python's generator's with the same seed (torch.load reads them)") {
  std::vector<InputSizeSpec> specs = {parse_input_spec("2x3"), parse_input_spec("4:long"),
                                      parse_input_spec("3:double"), parse_input_spec("2x2:int32")};
  std::vector<at::Tensor> random = random_inputs(specs, 7, 10);
  write_pt(test::fixture("out_random.pt"),
           c10::ivalue::Tuple::create(std::vector<c10::IValue>(random.begin(), random.end())));
  CHECK(test::python_checks_written_files("check-random"));
}
