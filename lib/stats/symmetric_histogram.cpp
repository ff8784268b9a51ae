#include "stats/symmetric_histogram.h"

#include "stats/float_kernels.h"
#include "stats/hot_loop.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace modrec {

namespace {
constexpr int kMinExponent = -1000;  // keeps (bins/2) / R a finite power of two
constexpr int kMaxBins = 1 << 20;
constexpr size_t kBlock = 512;  // values binned at a time

// Smallest e with 2^e >= a, for finite a > 0.
int ceil_log2(double a) {
  int e = 0;
  const double mantissa = std::frexp(a, &e);  // a = mantissa * 2^e, mantissa in [0.5, 1)
  return mantissa == 0.5 ? e - 1 : e;
}
}  // namespace

SymmetricHistogram::SymmetricHistogram(int bins) {
  if (bins < 4 || bins % 4 != 0 || bins > kMaxBins)
    throw std::invalid_argument("histogram bins must be a positive multiple of 4, got " +
                                std::to_string(bins));
  counts_.assign(static_cast<size_t>(bins), 0);
}

double SymmetricHistogram::range() const { return has_range_ ? std::ldexp(1.0, exponent_) : 1.0; }

void SymmetricHistogram::cover(double abs_max) {
  if (abs_max > 0) grow_to(std::max(ceil_log2(abs_max), kMinExponent));
}

// Before the first non-zero value only the bin starting at 0 holds counts, and that bin keeps
// its index under doubling, so the first range can be chosen freely.
void SymmetricHistogram::grow_to(int exponent) {
  if (!has_range_) {
    has_range_ = true;
    exponent_ = exponent;
    return;
  }
  while (exponent_ < exponent) double_range();
}

void SymmetricHistogram::double_range() {
  const size_t n = counts_.size();
  std::vector<int64_t> wider(n, 0);
  for (size_t i = 0; i < n; ++i) wider[n / 4 + i / 2] += counts_[i];
  // +R was in the inclusive last bin; in [-2R, 2R] it is the lower edge of bin 3n/4.
  wider[3 * n / 4 - 1] -= at_top_;
  wider[3 * n / 4] += at_top_;
  at_top_ = 0;
  counts_.swap(wider);
  ++exponent_;
}

namespace {
// bin = floor(x * bins / 2R) + bins/2: the product is exact (a power-of-two scale), so the bin
// agrees with comparisons against the edges. Index `bins` stands for x == +R, counted apart and
// folded into the last bin. kMayUnderflow (scale < 1): a tiny negative x whose product
// underflows to -0 still belongs below 0.
template <bool kMayUnderflow>
MODREC_HOT_LOOP void bin_indices(const double* values, size_t n, double scale, int32_t half,
                                 int32_t* out) {
  for (size_t k = 0; k < n; ++k) {
    const double x = values[k];
    const double t = x * scale;
    const int32_t i = static_cast<int32_t>(t);
    int32_t below = t < static_cast<double>(i);
    if constexpr (kMayUnderflow) below |= (t == 0) & (x < 0);
    out[k] = i + half - below;
  }
}
}  // namespace

void SymmetricHistogram::add(const double* values, size_t n) {
  HistogramCounting(*this).add(values, n);
}

void SymmetricHistogram::add(const float* values, size_t n) {
  HistogramCounting(*this).add(values, n);
}

namespace {
constexpr int kLanes = 8;
// The tallies are folded before they can wrap.
constexpr size_t kFoldEvery = size_t{1} << 30;
}  // namespace

HistogramCounting::HistogramCounting(SymmetricHistogram& histogram)
    : h_(histogram), tally_(kLanes * (histogram.counts_.size() + 1), 0) {
  scales();
}

// The scale is applied in float where it is a normal float (R from 2^-100 to 2^100, bins up to
// 2^20), which keeps the product exact as in double; other ranges take the double path.
void HistogramCounting::scales() {
  const int half = static_cast<int>(h_.counts_.size() / 2);
  range_ = h_.has_range_ ? std::ldexp(1.0, h_.exponent_) : 0.0;
  scale_ = h_.has_range_ ? std::ldexp(static_cast<double>(half), -h_.exponent_) : 1.0;
  float_scale_ = !h_.has_range_ || (h_.exponent_ >= -100 && h_.exponent_ <= 100);
}

// The tallies' bins are those of the present range: they go into the counts before it changes.
void HistogramCounting::cover(double abs_max) {
  if (abs_max <= range_) return;
  fold();
  h_.cover(abs_max);
  scales();
}

void HistogramCounting::fold() {
  if (pending_ == 0) return;
  const size_t slots = h_.counts_.size() + 1;
  for (int l = 0; l < kLanes; ++l) {
    uint32_t* lane = tally_.data() + l * slots;
    for (size_t b = 0; b + 1 < slots; ++b) h_.counts_[b] += lane[b];
    h_.counts_.back() += lane[slots - 1];
    h_.at_top_ += lane[slots - 1];
  }
  std::fill(tally_.begin(), tally_.end(), 0);
  pending_ = 0;
}

// Indices are computed a block at a time in a branch-free loop; the increments then go to eight
// interleaved 32-bit tallies so that runs of equal bins (a ReLU's zeros) do not wait on each
// other's stores.
template <class BinBlock>
void HistogramCounting::count(size_t n, BinBlock&& bin_block) {
  const size_t slots = h_.counts_.size() + 1;
  int32_t index[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    const size_t len = std::min(kBlock, n - start);
    if (pending_ + len > kFoldEvery) fold();
    pending_ += len;
    bin_block(start, len, index);
    uint32_t* tally = tally_.data();
    size_t k = 0;
    for (; k + kLanes <= len; k += kLanes)
      for (int l = 0; l < kLanes; ++l) ++tally[l * slots + static_cast<size_t>(index[k + l])];
    for (; k < len; ++k) ++tally[static_cast<size_t>(index[k])];
  }
}

void HistogramCounting::add(const double* values, size_t n) {
  const int32_t half = static_cast<int32_t>(h_.counts_.size() / 2);
  const double scale = scale_;
  count(n, [&](size_t start, size_t len, int32_t* index) {
    if (scale < 1)
      bin_indices<true>(values + start, len, scale, half, index);
    else
      bin_indices<false>(values + start, len, scale, half, index);
  });
}

void HistogramCounting::add(const float* values, size_t n) {
  if (!float_scale_) {
    double block[kBlock];
    for (size_t start = 0; start < n; start += kBlock) {
      const size_t len = std::min(kBlock, n - start);
      std::copy(values + start, values + start + len, block);
      add(block, len);
    }
    return;
  }
  const int32_t half = static_cast<int32_t>(h_.counts_.size() / 2);
  const float scale = static_cast<float>(scale_);
  const FloatKernels& kernels = float_kernels();
  count(n, [&](size_t start, size_t len, int32_t* index) {
    kernels.bins(values + start, len, scale, half, index);
  });
}

void SymmetricHistogram::merge(const SymmetricHistogram& other) {
  if (other.counts_.size() != counts_.size())
    throw std::invalid_argument("cannot merge histograms with different bin counts");
  SymmetricHistogram rhs = other;
  if (rhs.has_range_) grow_to(rhs.exponent_);
  if (has_range_) rhs.grow_to(exponent_);
  for (size_t i = 0; i < counts_.size(); ++i) counts_[i] += rhs.counts_[i];
  at_top_ += rhs.at_top_;
}

Histogram SymmetricHistogram::histogram() const {
  const size_t n = counts_.size();
  const double r = range();
  const double width = 2 * r / static_cast<double>(n);
  Histogram h;
  h.counts = counts_;
  h.edges.resize(n + 1);
  for (size_t i = 0; i <= n; ++i) h.edges[i] = -r + static_cast<double>(i) * width;
  return h;
}

SymmetricHistogram SymmetricHistogram::restore(const Histogram& h, double abs_max, int64_t at_top) {
  SymmetricHistogram out(static_cast<int>(h.counts.size()));
  out.cover(std::isfinite(abs_max) ? abs_max : 0.0);
  if (h.edges != out.histogram().edges)
    throw std::invalid_argument("histogram edges do not match [-R, R] for abs_max");
  out.counts_ = h.counts;
  out.at_top_ = at_top;
  return out;
}

}  // namespace modrec
