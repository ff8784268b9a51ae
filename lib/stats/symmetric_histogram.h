// A histogram over [-R, R] whose range R only grows by doubling, so that binning is exact under
// merging and the final counts depend only on the data, never on how it was batched (torch-free).
//
// Semantics (the contract stats.json documents):
// - `bins` equal-width bins (default 64, a multiple of 4) over [-R, R].
// - R is the smallest power of two >= the largest finite |x| seen; R = 1 when no non-zero finite
//   value was seen (all zeros, or nothing finite). R is never below 2^-1000 so that bin scales
//   stay finite for subnormal data.
// - A value on an edge goes to the bin above it; the last edge (+R) is inclusive, as
// numpy.histogram.
// - Growing R to 2R maps old bin i onto new bin bins/4 + i/2 (each new middle bin covers exactly
//   two old bins). Values equal to the old +R leave the last old bin for the bin starting at R,
//   which is why their number is kept (`at_top`).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace modrec {

struct Histogram {
  std::vector<double> edges;    // bins + 1 ascending edges, edges.front() == -edges.back()
  std::vector<int64_t> counts;  // bins counts
};

class SymmetricHistogram {
 public:
  explicit SymmetricHistogram(int bins = 64);  // throws std::invalid_argument unless bins % 4 == 0

  // Widens the range so that |x| <= abs_max fits; abs_max must be finite. No-op for abs_max == 0.
  void cover(double abs_max);
  // Counts finite values already covered by the range (call cover() first). No division per value.
  // One HistogramCounting per call: many calls in a row go faster through one of those.
  void add(const double* values, size_t n);
  void add(const float* values, size_t n);
  void merge(const SymmetricHistogram& other);  // throws std::invalid_argument on other bin counts

  int bins() const { return static_cast<int>(counts_.size()); }
  double range() const;  // R
  Histogram histogram() const;
  int64_t at_top() const { return at_top_; }  // values exactly equal to +R

  // Rebuilds the state saved as histogram() and at_top() of data whose largest finite |x| is
  // abs_max (0 when none); throws std::invalid_argument when the edges do not match abs_max.
  static SymmetricHistogram restore(const Histogram& h, double abs_max, int64_t at_top);

 private:
  friend class HistogramCounting;
  void grow_to(int exponent);
  void double_range();

  std::vector<int64_t> counts_;
  bool has_range_ = false;  // false until a non-zero value: only the bin at 0 can be filled then
  int exponent_ = 0;        // R = 2^exponent_ when has_range_
  int64_t at_top_ = 0;
};

// Counts values into a histogram through tallies kept for the counting's whole life, so that
// clearing and folding them into the counts is paid once rather than at every add(): RunningStats
// counts a tensor a chunk at a time through one of these. The histogram's counts include the
// values added once they are folded: at fold(), before cover() widens the range, at the end.
// Not copyable; one histogram is counted by at most one HistogramCounting at a time.
class HistogramCounting {
 public:
  explicit HistogramCounting(SymmetricHistogram& histogram);
  ~HistogramCounting() { fold(); }
  HistogramCounting(const HistogramCounting&) = delete;
  HistogramCounting& operator=(const HistogramCounting&) = delete;

  // As SymmetricHistogram's.
  void cover(double abs_max);
  void add(const double* values, size_t n);
  void add(const float* values, size_t n);
  void fold();

 private:
  // Bins n values a block at a time: bin_block(start, len, index) writes len bin indices.
  template <class BinBlock>
  void count(size_t n, BinBlock&& bin_block);
  void scales();  // for the histogram's present range

  SymmetricHistogram& h_;
  std::vector<uint32_t> tally_;  // interleaved lanes of bins + 1 slots; the last one counts +R
  size_t pending_ = 0;           // values in the tallies since the last fold
  double range_ = 0;             // R, 0 before the histogram has a range
  double scale_ = 1;             // bins/2 / R, 1 before it has a range
  bool float_scale_ = true;      // float products are exact for this scale
};

}  // namespace modrec
