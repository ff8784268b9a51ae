// RunningStats against torch's own reductions (stats_expected.py) and against itself when the
// same data arrives in batches.
#include <cmath>

#include <doctest/doctest.h>

#include "stats/running_stats.h"
#include "stats/test_fixtures.h"

namespace modrec {
namespace {
using nlohmann::json;
using test::StatsCase;

bool close(double a, double b, double rel) {
  if (a == b) return true;
  return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

// null in the expectations means "undefined", which RunningStats reports as NaN.
void check_real(const char* what, double got, const json& want, double rel) {
  INFO(what, ": got ", got, ", want ", want.dump());
  if (want.is_null())
    CHECK(std::isnan(got));
  else
    CHECK(close(got, want.get<double>(), rel));
}

RunningStats whole(const StatsCase& c, int bins) {
  RunningStats s(bins);
  test::add_slice(s, c, 0, c.size());
  return s;
}

// 8 uneven, possibly empty pieces that cover [0, n).
std::vector<size_t> piece_bounds(size_t n) {
  const double weights[] = {1, 5, 2, 9, 3, 7, 1, 4};  // sum 32
  std::vector<size_t> bounds{0};
  double acc = 0;
  for (double w : weights) {
    acc += w;
    bounds.push_back(static_cast<size_t>(std::llround(acc / 32 * static_cast<double>(n))));
  }
  return bounds;
}

void check_same(const RunningStats& a, const RunningStats& b) {
  CHECK(a.count() == b.count());
  CHECK(a.finite_count() == b.finite_count());
  CHECK(a.nan_count() == b.nan_count());
  CHECK(a.inf_count() == b.inf_count());
  CHECK(a.zero_count() == b.zero_count());
  const std::pair<double, double> reals[] = {
      {a.mean(), b.mean()},       {a.std(), b.std()},
      {a.m2(), b.m2()},           {a.min(), b.min()},
      {a.max(), b.max()},         {a.abs_max(), b.abs_max()},
      {a.l2_norm(), b.l2_norm()}, {a.zero_fraction(), b.zero_fraction()}};
  for (const auto& pair : reals) {  // not a structured binding: INFO captures it in a lambda
    const double x = pair.first, y = pair.second;
    INFO(x, " vs ", y);
    CHECK(((std::isnan(x) && std::isnan(y)) || close(x, y, 1e-12)));
  }
  CHECK(a.histogram().edges == b.histogram().edges);
  CHECK(a.histogram().counts == b.histogram().counts);
}

TEST_CASE("RunningStats matches torch and numpy on every test array") {
  const test::StatsCases& all = test::stats_cases();
  REQUIRE(all.cases.size() >= 20);
  for (const StatsCase& c : all.cases) {
    INFO("case ", c.name);
    const RunningStats s = whole(c, all.bins);
    const json& e = c.expected;
    CHECK(s.count() == e.at("count").get<int64_t>());
    CHECK(s.finite_count() == e.at("finite_count").get<int64_t>());
    CHECK(s.nan_count() == e.at("nan_count").get<int64_t>());
    CHECK(s.inf_count() == e.at("inf_count").get<int64_t>());
    for (const char* f : {"mean", "std", "l2_norm", "zero_fraction"})
      check_real(f,
                 f == std::string("mean")      ? s.mean()
                 : f == std::string("std")     ? s.std()
                 : f == std::string("l2_norm") ? s.l2_norm()
                                               : s.zero_fraction(),
                 e.at(f), 1e-9);
    // Extremes are values of the data: exact.
    check_real("min", s.min(), e.at("min"), 0);
    check_real("max", s.max(), e.at("max"), 0);
    check_real("abs_max", s.abs_max(), e.at("abs_max"), 0);
    const Histogram h = s.histogram();
    CHECK(h.counts == e.at("hist_counts").get<std::vector<int64_t>>());
    REQUIRE(h.edges.size() == static_cast<size_t>(all.bins) + 1);
    CHECK(h.edges.back() == e.at("hist_range").get<double>());
    CHECK(h.edges.front() == -e.at("hist_range").get<double>());
  }
}

TEST_CASE("statistics do not depend on batching") {
  const test::StatsCases& all = test::stats_cases();
  for (const StatsCase& c : all.cases) {
    INFO("case ", c.name);
    const RunningStats once = whole(c, all.bins);
    const std::vector<size_t> bounds = piece_bounds(c.size());
    RunningStats streamed(all.bins);
    RunningStats folded(all.bins);
    std::vector<RunningStats> parts;
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
      test::add_slice(streamed, c, bounds[i], bounds[i + 1]);
      parts.emplace_back(all.bins);
      test::add_slice(parts.back(), c, bounds[i], bounds[i + 1]);
      folded.merge(parts.back());
    }
    // Pairwise tree: merges states whose histogram ranges differ in both directions.
    for (size_t width = 1; width < parts.size(); width *= 2)
      for (size_t i = 0; i + width < parts.size(); i += 2 * width) parts[i].merge(parts[i + width]);
    for (const auto& way :
         {std::pair<const char*, const RunningStats*>{"added in pieces", &streamed},
          {"merged left to right", &folded},
          {"merged as a tree", &parts[0]}}) {
      INFO(way.first);
      check_same(once, *way.second);
    }
  }
}

TEST_CASE("the histogram moves values on +R when the range doubles") {
  // [-1, 1] in 4 bins holds 1 in the inclusive last bin; in [-2, 2] 1 is a lower edge.
  RunningStats s(4);
  const double one[] = {1.0}, two[] = {-2.0};
  s.add(one, 1);
  CHECK(s.histogram().counts == std::vector<int64_t>{0, 0, 0, 1});
  s.add(two, 1);
  CHECK(s.histogram().edges == std::vector<double>{-2, -1, 0, 1, 2});
  CHECK(s.histogram().counts == std::vector<int64_t>{1, 0, 0, 1});
}

TEST_CASE("a range that doubles within one add() rebins the values counted before it") {
  // One add() counts all its chunks through one HistogramCounting: the first chunk's values are
  // binned in [-1, 1], and must move to [-2, 2]'s bins when a later chunk doubles the range.
  std::vector<float> v(3000, -2.0f);
  std::fill(v.begin(), v.begin() + 1000, 0.75f);        // [0.5, 1) in [-1, 1]; [0, 1) in [-2, 2]
  std::fill(v.begin() + 1000, v.begin() + 2048, 1.0f);  // +R in [-1, 1]; [1, 2) in [-2, 2]
  RunningStats s(4);
  s.add(v.data(), v.size());
  CHECK(s.histogram().edges == std::vector<double>{-2, -1, 0, 1, 2});
  CHECK(s.histogram().counts == std::vector<int64_t>{952, 0, 1000, 1048});
}

TEST_CASE("histogram bin counts must be a positive multiple of 4") {
  CHECK_THROWS_AS(RunningStats(6), std::invalid_argument);
  CHECK_THROWS_AS(RunningStats(0), std::invalid_argument);
  CHECK_NOTHROW(RunningStats(8));
  RunningStats a(8), b(16);
  CHECK_THROWS_AS(a.merge(b), std::invalid_argument);
}

}  // namespace
}  // namespace modrec
