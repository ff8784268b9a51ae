// One-pass, mergeable statistics of a tensor's values (torch-free). record/ feeds every batch of
// every captured tensor through add(); check/ (check and diff) reads them back from stats.json
// (rundir/).
//
// Semantics (the contract of stats.json / stats.csv):
// - count: all elements; finite_count: elements that are neither NaN nor +/-Inf.
// - nan_count, inf_count: counted apart; NaN and +/-Inf take no part in anything else.
// - mean, std, min, max, abs_max, l2_norm, zero_fraction are over the finite values only.
//   std is the sample (unbiased, n - 1) standard deviation like torch.std's default; the state
//   keeps m2 = sum of squared deviations from the mean, so m2 / finite_count gives the
//   population variance. zero_fraction = finite zeros / finite_count. l2_norm = sqrt(sum x^2).
// - Undefined values are NaN here and null in JSON / empty in CSV: mean, min, max, abs_max and
//   zero_fraction without finite values, std with fewer than two. l2_norm of nothing is 0.
// - Accumulation is in double, one pass, in chunks merged with Chan et al.'s parallel update, and
//   relative to a shift (the first finite value) so that data far from zero keeps its digits.
//   Splitting the data into batches changes moments only at rounding level (tested to 1e-12
//   relative) and the histogram (see symmetric_histogram.h) not at all. Integers convert to double
//   first (exact up to 2^53); callers convert half/bfloat16 to float.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/symmetric_histogram.h"

namespace modrec {

struct ChunkMoments;  // of one chunk of values (running_stats.cpp)

class RunningStats {
 public:
  explicit RunningStats(int histogram_bins = 64);  // bins: a positive multiple of 4

  // Defined for float, double, int64_t, int32_t, int16_t, int8_t, uint8_t and bool.
  template <class T>
  void add(const T* data, size_t n);
  void merge(const RunningStats& other);  // throws std::invalid_argument on other bin counts

  int64_t count() const { return count_; }
  int64_t finite_count() const { return finite_; }
  int64_t nan_count() const { return nans_; }
  int64_t inf_count() const { return count_ - finite_ - nans_; }
  int64_t zero_count() const { return zeros_; }
  double mean() const;
  double m2() const { return m2_; }
  double std() const;
  double min() const;
  double max() const;
  double abs_max() const;
  double l2_norm() const;
  double zero_fraction() const;
  Histogram histogram() const { return hist_.histogram(); }

  // Every field above plus histogram {edges, counts, at_top} (values equal to +R, needed to keep
  // merging exact). NaN fields are written as null.
  nlohmann::json to_json() const;
  // Reads to_json() back. m2 and zero_count are stored, so the state is rebuilt exactly (when m2
  // is missing it is derived from std, to rounding). Throws modrec::Error (bad_input) on a
  // missing or inconsistent field.
  static RunningStats from_json(const nlohmann::json& j);

  // Data summarized elsewhere by the same rules (record's reduction on a GPU): its counts, the
  // finite values' mean, m2 about that mean and extremes, and the histogram's counts over the
  // bins this class picks for their abs_max, with at_top. Bins: counts.size().
  struct Parts {
    int64_t count = 0, finite = 0, nans = 0, zeros = 0;
    double mean = 0, m2 = 0;
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    std::vector<int64_t> counts;
    int64_t at_top = 0;
  };
  static RunningStats from_parts(const Parts& parts);

 private:
  // Each chunk's values are counted into hist_ through the add() call's one HistogramCounting.
  bool add_float_chunk(const float* values, size_t n, HistogramCounting& counting);
  template <class T>
  void add_widened(const T* data, size_t n, HistogramCounting& counting);  // chunks of doubles
  template <class V>
  void add_finite_chunk(const V* values, size_t n, const ChunkMoments& m,
                        HistogramCounting& counting);
  void merge_moments(int64_t n, double mean, double m2);

  int64_t count_ = 0;
  int64_t finite_ = 0;
  int64_t nans_ = 0;
  int64_t zeros_ = 0;
  double shift_ = 0;  // moments are accumulated for x - shift_
  double mean_ = 0;   // of x - shift_
  double m2_ = 0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
  SymmetricHistogram hist_;
};

}  // namespace modrec
