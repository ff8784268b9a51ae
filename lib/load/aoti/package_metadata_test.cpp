#include "load/aoti/package_metadata.h"

#include <doctest/doctest.h>

#include <stdexcept>

using namespace modrec::aoti;

TEST_CASE("the metadata aoti_compile_and_package writes is read as strings") {
  const PackageMetadata m = parse_package_metadata(
      R"({"AOTI_DEVICE_KEY": "cpu", "AOTI_PLATFORM": "linux", "AOTI_MACHINE": "x86_64",)"
      R"( "AOTI_CPU_ISA": "AVX2", "AOTI_COMPUTE_CAPABILITY": ""})");
  CHECK(m.device == "cpu");
  CHECK(m.values.at("AOTI_CPU_ISA") == "AVX2");
  CHECK(m.values.size() == 5);
}

TEST_CASE("metadata LibTorch's loader would refuse or misread says what is wrong") {
  CHECK_THROWS_WITH_AS(parse_package_metadata("[1]"), "is not a JSON object",
                       std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_package_metadata(R"({"AOTI_DEVICE_KEY": 1})"),
                       "holds AOTI_DEVICE_KEY, not a string", std::invalid_argument);
  CHECK_THROWS_WITH_AS(parse_package_metadata(R"({"AOTI_PLATFORM": "linux"})"),
                       "names no AOTI_DEVICE_KEY", std::invalid_argument);
  CHECK_THROWS_AS(parse_package_metadata("{\"a\": " + std::string(100, '[')),
                  std::invalid_argument);
}
