#include "load/aoti/input_match.h"

#include <doctest/doctest.h>

using namespace modrec::aoti;

namespace {

CompiledInput rows_of_4(std::optional<int64_t> rows, std::optional<int64_t> min = {}) {
  CompiledInput in{"arg4_1", "float32", {{rows, min, std::nullopt}, {4, {}, {}}}};
  return in;
}

}  // namespace

TEST_CASE("an input of the compiled sizes and dtype fits") {
  CHECK(input_mismatch(rows_of_4(4), "float32", {4, 4}) == "");
  CHECK(input_mismatch(rows_of_4(std::nullopt, 2), "float32", {9, 4}) == "");
}

TEST_CASE("another size, dtype or number of dimensions names what was compiled") {
  CHECK(input_mismatch(rows_of_4(4), "float32", {9, 4}) ==
        "dimension 0 is 9, where the package was compiled for 4");
  CHECK(input_mismatch(rows_of_4(4), "float64", {4, 4}) ==
        "dtype float64, where the package was compiled for float32");
  CHECK(input_mismatch(rows_of_4(4), "float32", {4, 4, 1}) ==
        "3 dimensions, where the package was compiled for 2");
  CHECK(input_mismatch(rows_of_4(std::nullopt, 2), "float32", {1, 4}) ==
        "dimension 0 is 1, outside the range [2, inf] the package was compiled for");
}

TEST_CASE("a program whose code checks nothing of an input takes it as it is") {
  CHECK(input_mismatch(CompiledInput{}, "float64", {1, 2, 3}) == "");
}
