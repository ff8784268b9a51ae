#include "merge/run_identity.h"

#include <doctest/doctest.h>

#include "merge/test_fixtures.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::test::json;
using modrec::testing::error_of;

namespace {

std::string refusal(const json& a, const json& b) {
  const auto e = error_of([&] { check_same_recording(test::shard_run(a), test::shard_run(b)); });
  CHECK(e.first == Exit::bad_input);
  CHECK(e.second.find("(s0 and s1)") != std::string::npos);  // the pair, named
  return e.second;
}

}  // namespace

TEST_CASE("shards of one recording differ only in their part") {
  CHECK(error_of([] {
          check_same_recording(test::shard_run(test::shard_manifest(0, 2, 10)),
                               test::shard_run(test::shard_manifest(1, 2, 10)));
        }).first == Exit::ok);
}

TEST_CASE("the first differing field is named with both values") {
  const json a = test::shard_manifest(0, 2, 10, 2);
  json b = test::shard_manifest(1, 2, 10, 4);
  CHECK(refusal(a, b).find("options differ at /batch_size: 2 vs 4") != std::string::npos);

  b = test::shard_manifest(1, 2, 10, 2);
  b["model"]["sha256"] = "0ddba11";
  b["model"]["path"] = "elsewhere/m.pt";  // a path alone may differ
  CHECK(refusal(a, b).find("models differ: \"5ca1ab1e\" vs \"0ddba11\"") != std::string::npos);

  b = test::shard_manifest(1, 2, 10, 2);
  b["inputs"]["files"] = {"y.npy"};
  CHECK(refusal(a, b).find("inputs differ at /files/0") != std::string::npos);

  b = test::shard_manifest(1, 2, 10, 2);
  b["libtorch_version"] = "2.11.0";
  CHECK(refusal(a, b).find("LibTorch versions differ") != std::string::npos);

  b = test::shard_manifest(1, 2, 10, 2);
  b["modrec_version"] = "0.1.0";
  CHECK(refusal(a, b).find("modrec versions differ") != std::string::npos);
}

TEST_CASE("shard counts and runs without --shard are refused") {
  const json a = test::shard_manifest(0, 2, 12);
  CHECK(refusal(a, test::shard_manifest(1, 3, 12)).find("shard counts differ: 2 vs 3") !=
        std::string::npos);
  json whole = test::shard_manifest(1, 1, 12);
  whole["shard"] = nullptr;
  whole["samples"] = 12;
  const auto e =
      error_of([&] { check_same_recording(test::shard_run(a), test::shard_run(whole, {}, "s1")); });
  CHECK(e.first == Exit::bad_input);
  CHECK(e.second.find("s1 was recorded without --shard (s0 and s1)") != std::string::npos);
}
