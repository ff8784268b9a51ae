#include "load/operator_libraries.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "util/error.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::testing::error_of;

// The build's torch is the pinned environment's, which holds torchvision 0.29: its library links
// libtorch_python.so, so this also loads libpython (never initialised) first.
TEST_CASE("torchvision's operators load from beside the torch modrec runs on, once, and run") {
  CHECK_FALSE(namespace_registered("torchvision"));
  REQUIRE(load_namespace_library("torchvision"));
  CHECK(namespace_registered("torchvision"));
  CHECK_FALSE(load_namespace_library("torchvision"));  // loaded already
  auto nms = c10::Dispatcher::singleton().findSchemaOrThrow("torchvision::nms", "");
  const at::Tensor boxes =
      at::tensor({0.f, 0.f, 10.f, 10.f, 1.f, 1.f, 11.f, 11.f, 50.f, 50.f, 60.f, 60.f})
          .reshape({3, 4});
  const at::Tensor scores = at::tensor({0.9f, 0.8f, 0.7f});
  const at::Tensor kept =
      nms.typed<at::Tensor(const at::Tensor&, const at::Tensor&, double)>().call(boxes, scores,
                                                                                 0.5);
  // the second box overlaps the first (IoU 0.68) and goes
  CHECK(kept.equal(at::tensor({0, 2}, at::kLong)));
}

TEST_CASE("a namespace no known package provides is not loaded, and the hint says what to do") {
  CHECK_FALSE(load_namespace_library("myops"));
  CHECK_FALSE(namespace_registered("myops"));
  CHECK(namespace_hint("myops").find("--load-library") != std::string::npos);
  CHECK(namespace_hint("torchvision").find("install torchvision") != std::string::npos);
  CHECK(namespace_registered("aten"));
}

TEST_CASE("--load-library of a missing file or of no library is exit 3 naming it") {
  auto [code, line] = error_of([] { load_operator_library("/nonexistent/libmyops.so"); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("/nonexistent/libmyops.so") != std::string::npos);
  const std::string text = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                           "/modrec_not_a_library.so";
  std::ofstream(text) << "not a library\n";
  std::tie(code, line) = error_of([&] { load_operator_library(text); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find(text) != std::string::npos);
  CHECK(line.find("cannot load the operator library") != std::string::npos);
}
