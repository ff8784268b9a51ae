// stats.json form of RunningStats: what record/ writes and check/ diff read back.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "stats/running_stats.h"
#include "util/error.h"

namespace modrec {

namespace {
using nlohmann::json;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

[[noreturn]] void invalid(const std::string& why) {
  throw Error(Exit::bad_input, "invalid tensor statistics: " + why, "stats.json",
              "write it again with modrec record");
}

const json& field(const json& j, const char* name) {
  if (!j.is_object() || !j.contains(name)) invalid(std::string("missing \"") + name + "\"");
  return j.at(name);
}

int64_t count_field(const json& j, const char* name) {
  const json& v = field(j, name);
  if (!v.is_number_integer() || v.get<int64_t>() < 0)
    invalid(std::string("\"") + name + "\" is not a count");
  return v.get<int64_t>();
}

// Null stands for "undefined", which the state holds as `fallback`.
double real_field(const json& j, const char* name, double fallback) {
  const json& v = field(j, name);
  if (v.is_null()) return fallback;
  if (!v.is_number()) invalid(std::string("\"") + name + "\" is not a number");
  return v.get<double>();
}

SymmetricHistogram read_histogram(const json& hj, double abs_max) {
  try {
    Histogram h;
    h.edges = field(hj, "edges").get<std::vector<double>>();
    h.counts = field(hj, "counts").get<std::vector<int64_t>>();
    const int64_t at_top = hj.contains("at_top") ? hj.at("at_top").get<int64_t>() : 0;
    return SymmetricHistogram::restore(h, abs_max, at_top);
  } catch (const json::exception& e) {
    invalid(std::string("histogram: ") + e.what());
  } catch (const std::invalid_argument& e) {
    invalid(std::string("histogram: ") + e.what());
  }
}
}  // namespace

json RunningStats::to_json() const {
  const Histogram h = histogram();
  return json{
      {"count", count()},
      {"finite_count", finite_count()},
      {"mean", number_or_null(mean())},
      {"std", number_or_null(std())},
      {"m2", m2()},
      {"min", number_or_null(min())},
      {"max", number_or_null(max())},
      {"abs_max", number_or_null(abs_max())},
      {"l2_norm", l2_norm()},
      {"zero_fraction", number_or_null(zero_fraction())},
      {"zero_count", zero_count()},
      {"nan_count", nan_count()},
      {"inf_count", inf_count()},
      {"histogram", {{"edges", h.edges}, {"counts", h.counts}, {"at_top", hist_.at_top()}}}};
}

RunningStats RunningStats::from_json(const json& j) {
  RunningStats s;
  s.count_ = count_field(j, "count");
  s.finite_ = count_field(j, "finite_count");
  s.nans_ = count_field(j, "nan_count");
  if (s.finite_ + s.nans_ + count_field(j, "inf_count") != s.count_)
    invalid("finite, NaN and Inf counts do not add up to count");
  const double n = static_cast<double>(s.finite_);
  s.zeros_ = j.contains("zero_count") ? count_field(j, "zero_count")
                                      : std::llround(real_field(j, "zero_fraction", 0) * n);
  s.shift_ = real_field(j, "mean", 0);  // mean_ (relative to the shift) stays 0
  const double sd = real_field(j, "std", 0);
  s.m2_ = j.contains("m2") ? real_field(j, "m2", 0) : sd * sd * std::max(n - 1, 0.0);
  if (s.finite_ > 0) {
    s.min_ = real_field(j, "min", s.min_);
    s.max_ = real_field(j, "max", s.max_);
  }
  s.hist_ = read_histogram(field(j, "histogram"), s.finite_ > 0 ? s.abs_max() : 0.0);
  const Histogram h = s.histogram();
  if (std::accumulate(h.counts.begin(), h.counts.end(), int64_t{0}) != s.finite_)
    invalid("histogram counts do not add up to finite_count");
  return s;
}

}  // namespace modrec
