#include "sources/shard.h"

#include <doctest/doctest.h>

#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::testing::error_of;

TEST_CASE("parse_shard reads K/N with K from 0") {
  const Shard s = parse_shard("3/4");
  CHECK(s.index == 3);
  CHECK(s.count == 4);
  CHECK(parse_shard("0/1").count == 1);
}

TEST_CASE("bad shards are usage errors naming --shard") {
  for (const char* bad : {"", "4/4", "1", "/4", "1/", "-1/4", "1/0", "a/b", "1/4/2", "1 /4",
                          "99999999999999999999/1"}) {
    INFO(bad);
    const auto [code, line] = error_of([&] { parse_shard(bad); });
    CHECK(code == Exit::usage);
    CHECK(line.find("--shard") != std::string::npos);
  }
}

TEST_CASE("shards tile the samples in order, balanced") {
  for (int64_t samples : {4, 10, 11, 1000003}) {
    for (int64_t count : {1, 2, 3, 4}) {
      int64_t next = 0, smallest = samples, largest = 0;
      for (int64_t k = 0; k < count; ++k) {
        const SampleRange r = shard_range(Shard{k, count}, samples);
        CHECK(r.start == next);
        next = r.end;
        smallest = std::min(smallest, r.size());
        largest = std::max(largest, r.size());
      }
      CHECK(next == samples);
      CHECK(largest - smallest <= 1);
    }
  }
  CHECK(shard_range(std::nullopt, 7).size() == 7);
  const SampleRange big = shard_range(Shard{3, 4}, int64_t{1} << 61);
  CHECK(big.end == int64_t{1} << 61);
  CHECK(big.start == (int64_t{3} << 59));
}

TEST_CASE("an empty shard is a usage error") {
  const auto [code, line] = error_of([] { shard_range(Shard{0, 3}, 2); });
  CHECK(code == Exit::usage);
  CHECK(line.find("shard 0/3 of 2 samples is empty") != std::string::npos);
}
