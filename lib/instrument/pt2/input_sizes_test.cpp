#include "instrument/pt2/input_sizes.h"

#include <ATen/Functions.h>
#include <doctest/doctest.h>

#include "util/error.h"

using namespace modrec;
using namespace modrec::pt2;

namespace {

// An input exported at [2, s0, 8] with s0 in [2, 32].
TensorMeta meta() {
  TensorMeta m;
  m.sizes = {2, -1, 8};
  m.size_symbols = {"", "s0", ""};
  return m;
}

const std::map<std::string, SymbolRange> kRanges = {{"s0", {2, 32}}};

}  // namespace

TEST_CASE("an input of the exported static sizes and a dynamic size in its range fits") {
  CHECK(size_mismatch(meta(), kRanges, {2, 2, 8}) == "");
  CHECK(size_mismatch(meta(), kRanges, {2, 32, 8}) == "");
}

TEST_CASE("a static dimension of another size names the dimension, the size and the export's") {
  CHECK(size_mismatch(meta(), kRanges, {3, 5, 8}) ==
        "dimension 0 is 3, where the program was exported for 2");
  CHECK(size_mismatch(meta(), kRanges, {2, 5, 4}) ==
        "dimension 2 is 4, where the program was exported for 8");
}

TEST_CASE("a dynamic dimension outside its range names the range") {
  CHECK(size_mismatch(meta(), kRanges, {2, 40, 8}) ==
        "dimension 1 is 40, outside the range [2, 32] the program was exported for");
  CHECK(size_mismatch(meta(), {{"s0", {2, std::nullopt}}}, {2, 1, 8}) ==
        "dimension 1 is 1, outside the range [2, inf] the program was exported for");
}

TEST_CASE("a size computed from several symbols is not checked") {
  TensorMeta m = meta();
  m.size_symbols[1] = "";  // "2*s0": no plain symbol
  CHECK(size_mismatch(m, kRanges, {2, 1000, 8}) == "");
}

TEST_CASE("another number of dimensions is named") {
  CHECK(size_mismatch(meta(), kRanges, {2, 5}) ==
        "2 dimensions, where the program was exported for 3");
}

TEST_CASE("check_input_sizes throws a usage error naming the input") {
  Program program;
  program.inputs = {{InputSpec::Kind::parameter, "p_w", "w"},
                    {InputSpec::Kind::user_input, "x", ""}};
  program.tensor_values["x"] = meta();
  program.range_constraints = kRanges;
  const std::vector<c10::IValue> inputs = {at::zeros({3, 5, 8})};
  try {
    check_input_sizes(program, inputs, "m.pt2");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::usage);
    CHECK(std::string(e.what()) ==
          "input x: dimension 0 is 3, where the program was exported for 2");
    CHECK(e.where() == "m.pt2");
  }
  CHECK_NOTHROW(check_input_sizes(program, {at::zeros({2, 5, 8})}, "m.pt2"));
}
