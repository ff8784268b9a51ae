#include "tensor_files/write_tensors.h"

#include <doctest/doctest.h>

#include <ATen/ATen.h>

#include "tensor_files/test_fixtures.h"
#include "util/error.h"

using namespace modrec;
using modrec::test::fixture;

namespace {
// arange(6) as `type`, 2x3: the values test_fixtures.py's sample() builds.
at::Tensor sample(at::ScalarType type) { return at::arange(6).reshape({2, 3}).to(type); }
}  // namespace

TEST_CASE("written .pt and .npy files load in Python with the same values and dtypes") {
  const std::pair<const char*, at::ScalarType> dtypes[] = {
      {"float32", at::kFloat},     {"float64", at::kDouble}, {"float16", at::kHalf},
      {"bfloat16", at::kBFloat16}, {"int64", at::kLong},     {"int32", at::kInt},
      {"int16", at::kShort},       {"int8", at::kChar},      {"uint8", at::kByte},
      {"bool", at::kBool},
  };
  for (const auto& [name, type] : dtypes) {
    at::Tensor view = sample(type).t();  // non-contiguous: must be saved as a compact clone
    write_pt(fixture(std::string("out_") + name + ".pt"), view);
    write_npy(fixture(std::string("out_") + name + ".npy"), sample(type));
  }
  write_pt(fixture("out_tuple.pt"),
           c10::ivalue::Tuple::create({sample(at::kFloat), sample(at::kLong)}));
  write_pt(fixture("out_list.pt"), c10::List<at::Tensor>({sample(at::kFloat), sample(at::kLong)}));
  write_npy(fixture("out_scalar.npy"), at::scalar_tensor(7.0));
  write_npy(fixture("out_empty.npy"), at::zeros({0, 3}));
  CHECK(test::python_checks_written_files());
}

TEST_CASE("a write that cannot happen is exit 5 and leaves nothing behind") {
  try {
    write_pt(fixture("no-such-folder/x.pt"), sample(at::kFloat));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::write_failed);
    CHECK(e.where() == fixture("no-such-folder/x.pt"));
  }
  // Renaming onto a directory fails after the temp file was written: it must be removed.
  try {
    write_npy(fixture("folder"), sample(at::kFloat));
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::write_failed);
  }
  CHECK_FALSE(std::filesystem::exists(fixture("folder.tmp")));
  CHECK_THROWS_AS(
      write_npy(fixture("q.npy"), at::quantize_per_tensor(at::ones({2}), 0.1, 0, at::kQInt8)),
      Error);
}
