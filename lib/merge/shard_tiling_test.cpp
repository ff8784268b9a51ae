#include "merge/shard_tiling.h"

#include <doctest/doctest.h>

#include "merge/test_fixtures.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::test::json;
using modrec::testing::error_of;

namespace {

ShardRun part(int64_t index, int64_t count = 4, int64_t total = 10, std::string dir = "") {
  return test::shard_run(test::shard_manifest(index, count, total), {}, std::move(dir));
}

std::string refusal(std::vector<ShardRun> runs) {
  const auto e = error_of([&] { in_shard_order(std::move(runs)); });
  CHECK(e.first == Exit::bad_input);
  return e.second;
}

}  // namespace

TEST_CASE("shards given in any order come back in index order") {
  std::vector<ShardRun> runs;
  for (int64_t i : {2, 0, 3, 1}) runs.push_back(part(i));
  const auto ordered = in_shard_order(std::move(runs));
  REQUIRE(ordered.size() == 4);
  for (int64_t i = 0; i < 4; ++i) CHECK(ordered[i].part.index == i);
  CHECK(ordered[3].part.end == 10);
}

TEST_CASE("a duplicated or missing shard names the pair of runs around it") {
  CHECK(refusal({part(0), part(1), part(1, 4, 10, "again"), part(2), part(3)})
            .find("shard 1/4 given twice (s1 and again)") != std::string::npos);
  CHECK(refusal({part(0), part(1), part(3)})
            .find("shard 2/4 is missing between shards 1/4 and 3/4 (s1 and s3)") !=
        std::string::npos);
  CHECK(refusal({part(1), part(2), part(3)}).find("shard 0/4 is missing (s1 and s3)") !=
        std::string::npos);
  CHECK(refusal({part(0), part(1), part(2)}).find("shard 3/4 is missing (s0 and s2)") !=
        std::string::npos);
  CHECK(refusal({part(2)}).find("shard 0/4 is missing (s2):") != std::string::npos);
}

TEST_CASE("ranges that overlap, leave a gap or miss the input's ends are refused") {
  auto moved = [](int64_t index, int64_t start, int64_t end) {
    json m = test::shard_manifest(index, 2, 10);
    m["shard"]["start"] = start;
    m["shard"]["end"] = end;
    m["samples"] = end - start;
    return test::shard_run(m);
  };
  CHECK(refusal({moved(0, 0, 6), moved(1, 5, 10)})
            .find("sample ranges overlap: [0, 6) then [5, 10) (s0 and s1)") != std::string::npos);
  CHECK(refusal({moved(0, 0, 4), moved(1, 5, 10)}).find("sample ranges leave a gap") !=
        std::string::npos);
  CHECK(refusal({moved(0, 0, 5), moved(1, 5, 9)})
            .find("the shards' samples 0 to 9 do not cover the input's 10") != std::string::npos);
}

TEST_CASE("one whole run is a complete set of one") {
  json m = test::shard_manifest(0, 1, 7);
  m["shard"] = nullptr;
  std::vector<ShardRun> runs{test::shard_run(m, {}, "whole")};
  CHECK(in_shard_order(std::move(runs)).size() == 1);
}
