#include "tensor_files/npy_stream.h"

#include <doctest/doctest.h>

#include "tensor_files/npy.h"
#include "tensor_files/test_fixtures.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::test::fixture;

TEST_CASE("rows appended one after another read back as one array, bfloat16 as float32") {
  const std::string path = fixture("streamed.npy");
  const at::Tensor x = at::arange(12.0).reshape({4, 3}).to(at::kBFloat16);
  NpyStream out(path, at::kBFloat16, {4, 3});
  out.append(x.slice(0, 0, 1));
  out.append(x.slice(0, 1, 4).t().contiguous().t());  // a strided view is written in C order
  out.close();
  const at::Tensor back = parse_npy(test::slurp(path), path);
  CHECK((back.scalar_type() == at::kFloat));
  CHECK(at::equal(back, x.to(at::kFloat)));
}

TEST_CASE("closing before the rows fill the shape is a write error, not a short file passed on") {
  const std::string path = fixture("short.npy");
  NpyStream out(path, at::kFloat, {3, 2});
  out.append(at::zeros({1, 2}));
  const auto e = modrec::testing::error_of([&] { out.close(); });
  CHECK(e.first == Exit::write_failed);
  CHECK(e.second.find("wrote 8 data bytes of the 24 its header announces") != std::string::npos);
}
