// stats.json and stats.csv forms of RunningStats: nulls for undefined values, exact round trip,
// and merging after a round trip.
#include <cmath>
#include <cstdlib>
#include <limits>

#include <doctest/doctest.h>

#include "stats/running_stats.h"
#include "stats/stats_csv.h"
#include "stats/test_fixtures.h"
#include "util/error.h"

namespace modrec {
namespace {
using nlohmann::json;

json round_trip(const RunningStats& s) { return json::parse(s.to_json().dump()); }

RunningStats of(std::initializer_list<double> values) {
  RunningStats s;
  const std::vector<double> v(values);
  s.add(v.data(), v.size());
  return s;
}

TEST_CASE("to_json writes every field and null where a value is undefined") {
  const json j = round_trip(of({}));
  for (const char* f : {"mean", "std", "min", "max", "abs_max", "zero_fraction"}) {
    INFO(f);
    CHECK(j.at(f).is_null());
  }
  CHECK(j.at("l2_norm") == 0.0);
  CHECK(j.at("count") == 0);
  CHECK(j.at("histogram").at("counts").size() == 64);
  CHECK(j.at("histogram").at("edges").size() == 65);
  CHECK(round_trip(of({2.0})).at("std").is_null());  // the sample std needs two values
  CHECK(round_trip(of({2.0})).at("mean") == 2.0);
}

TEST_CASE("from_json restores every test array exactly") {
  for (const test::StatsCase& c : test::stats_cases().cases) {
    INFO("case ", c.name);
    RunningStats s;
    test::add_slice(s, c, 0, c.size());
    CHECK(RunningStats::from_json(round_trip(s)).to_json() == s.to_json());
  }
}

TEST_CASE("states read back merge like the states written") {
  for (const test::StatsCase& c : test::stats_cases().cases) {
    INFO("case ", c.name);
    RunningStats a, b;
    test::add_slice(a, c, 0, c.size() / 3);
    test::add_slice(b, c, c.size() / 3, c.size());
    RunningStats restored = RunningStats::from_json(round_trip(a));
    restored.merge(RunningStats::from_json(round_trip(b)));
    a.merge(b);
    // A restored state keeps its mean as the shift, so merged moments agree to rounding.
    const json want = a.to_json(), got = restored.to_json();
    CHECK(got.at("histogram") == want.at("histogram"));
    for (const char* f :
         {"count", "finite_count", "nan_count", "inf_count", "zero_count", "min", "max"})
      CHECK(got.at(f) == want.at(f));
    for (const char* f : {"mean", "std", "l2_norm"}) {
      INFO(f);
      if (want.at(f).is_null()) {
        CHECK(got.at(f).is_null());
      } else {
        const double w = want.at(f).get<double>(), g = got.at(f).get<double>();
        CHECK(std::abs(w - g) <= 1e-9 * std::abs(w));
      }
    }
  }
}

TEST_CASE("from_json derives m2 from std when m2 is missing") {
  const RunningStats s = of({1, 2, 3, 4});
  json j = s.to_json();
  j.erase("m2");
  CHECK(RunningStats::from_json(j).m2() == doctest::Approx(s.m2()).epsilon(1e-15));
}

TEST_CASE("from_json rejects a broken record with bad_input") {
  const json good = of({1, -2, 0}).to_json();
  auto rejects = [](const json& j) {
    try {
      RunningStats::from_json(j);
    } catch (const Error& e) {
      CHECK(e.code() == Exit::bad_input);
      return true;
    }
    return false;
  };
  json missing = good;
  missing.erase("count");
  CHECK(rejects(missing));
  json counts = good;
  counts["nan_count"] = 5;
  CHECK(rejects(counts));
  json bins = good;
  bins["histogram"]["counts"] = std::vector<int64_t>(6, 0);
  CHECK(rejects(bins));
  json edges = good;
  edges["histogram"]["edges"][0] = -8.0;
  CHECK(rejects(edges));
  json tally = good;
  tally["histogram"]["counts"][0] = 7;
  CHECK(rejects(tally));
  CHECK(rejects(json::array()));
  CHECK_FALSE(rejects(good));
}

TEST_CASE("stats.csv cells line up with the header and round-trip") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  RunningStats s;
  const double v[] = {0.1, 0.2, 0.0, nan, -inf};
  s.add(v, 5);
  const std::vector<std::string> header = stats_csv_header();
  const std::vector<std::string> cells = stats_csv_cells(s);
  REQUIRE(header == std::vector<std::string>{"count", "finite_count", "mean", "std", "min", "max",
                                             "abs_max", "l2_norm", "zero_fraction", "nan_count",
                                             "inf_count"});
  REQUIRE(cells.size() == header.size());
  CHECK(cells[0] == "5");
  CHECK(cells[1] == "3");
  CHECK(std::strtod(cells[2].c_str(), nullptr) == s.mean());
  CHECK(std::strtod(cells[7].c_str(), nullptr) == s.l2_norm());
  CHECK(cells[4] == "0");
  CHECK(cells[5] == "0.20000000000000001");
  CHECK(cells[9] == "1");
  CHECK(cells[10] == "1");
  const std::vector<std::string> empty = stats_csv_cells(RunningStats());
  CHECK(empty[2].empty());  // undefined mean
  CHECK(empty[7] == "0");
}

}  // namespace
}  // namespace modrec
