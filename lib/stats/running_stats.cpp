#include "stats/running_stats.h"

#include "stats/float_kernels.h"
#include "stats/hot_loop.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace modrec {

namespace {
// A chunk stays in L1 between the passes over it: 16 KiB of doubles, or 8 KiB of floats read as
// they are. Small float chunks make the histogram's counting of one chunk (L1-bound) alternate
// with the scan of the next (memory-bound) finely enough for the two to overlap.
constexpr size_t kChunk = 2048;
constexpr size_t kFloatChunk = 2048;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

bool is_finite(double v) { return std::abs(v) <= std::numeric_limits<double>::max(); }

// Moves the finite values of v[0, n) to its front; returns how many there are.
size_t compact_finite(double* v, size_t n, int64_t& nans) {
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    const double x = v[i];
    v[kept] = x;
    kept += is_finite(x);
    nans += x != x;
  }
  return kept;
}

// Converts src to double into dst, finite values first; returns the number of finite values.
template <class T>
MODREC_HOT_LOOP size_t load_chunk(const T* src, size_t n, double* dst, int64_t& nans) {
  for (size_t i = 0; i < n; ++i) dst[i] = static_cast<double>(src[i]);
  if constexpr (std::is_floating_point_v<T>) {
    int64_t nonfinite = 0;
    for (size_t i = 0; i < n; ++i) nonfinite += !is_finite(dst[i]);
    if (nonfinite > 0) return compact_finite(dst, n, nans);
  }
  return n;
}

}  // namespace

struct ChunkMoments {
  double sum, sum_sq, min, max;  // sums of x - shift and of its square
  int64_t zeros;
};

namespace {
// Sums of x - shift and its square, extremes and zeros of n > 0 finite values; independent lanes
// for instruction parallelism.
MODREC_HOT_LOOP ChunkMoments first_pass(const double* v, size_t n, double shift) {
  double s[4] = {0, 0, 0, 0}, q[4] = {0, 0, 0, 0};
  double lo[4] = {v[0], v[0], v[0], v[0]}, hi[4] = {v[0], v[0], v[0], v[0]};
  int64_t zeros[4] = {0, 0, 0, 0};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int l = 0; l < 4; ++l) {
      const double x = v[i + l];
      s[l] += x - shift;
      q[l] += (x - shift) * (x - shift);
      lo[l] = std::min(lo[l], x);
      hi[l] = std::max(hi[l], x);
      zeros[l] += x == 0;
    }
  for (; i < n; ++i) {
    s[0] += v[i] - shift;
    q[0] += (v[i] - shift) * (v[i] - shift);
    lo[0] = std::min(lo[0], v[i]);
    hi[0] = std::max(hi[0], v[i]);
    zeros[0] += v[i] == 0;
  }
  ChunkMoments m;
  m.sum = (s[0] + s[1]) + (s[2] + s[3]);
  m.sum_sq = (q[0] + q[1]) + (q[2] + q[3]);
  m.min = std::min(std::min(lo[0], lo[1]), std::min(lo[2], lo[3]));
  m.max = std::max(std::max(hi[0], hi[1]), std::max(hi[2], hi[3]));
  m.zeros = (zeros[0] + zeros[1]) + (zeros[2] + zeros[3]);
  return m;
}

MODREC_HOT_LOOP Deviations deviations(const double* v, size_t n, double shift, double center) {
  double s[4] = {0, 0, 0, 0}, q[4] = {0, 0, 0, 0};
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int l = 0; l < 4; ++l) {
      const double d = (v[i + l] - shift) - center;
      s[l] += d;
      q[l] += d * d;
    }
  for (; i < n; ++i) {
    const double d = (v[i] - shift) - center;
    s[0] += d;
    q[0] += d * d;
  }
  return {(s[0] + s[1]) + (s[2] + s[3]), (q[0] + q[1]) + (q[2] + q[3])};
}

Deviations deviations(const float* v, size_t n, double shift, double center) {
  return float_kernels().deviations(v, n, shift, center);
}
}  // namespace

RunningStats::RunningStats(int histogram_bins) : hist_(histogram_bins) {}

RunningStats RunningStats::from_parts(const Parts& p) {
  RunningStats s(static_cast<int>(p.counts.size()));
  s.count_ = p.count;
  s.finite_ = p.finite;
  s.nans_ = p.nans;
  s.zeros_ = p.zeros;
  if (p.finite == 0) return s;
  s.shift_ = p.mean;  // mean_ (relative to the shift) stays 0
  s.m2_ = p.m2;
  s.min_ = p.min;
  s.max_ = p.max;
  SymmetricHistogram bins(static_cast<int>(p.counts.size()));
  bins.cover(s.abs_max());
  Histogram h = bins.histogram();
  h.counts = p.counts;
  s.hist_ = SymmetricHistogram::restore(h, s.abs_max(), p.at_top);
  return s;
}

template <class T>
void RunningStats::add(const T* data, size_t n) {
  HistogramCounting counting(hist_);
  if constexpr (std::is_same_v<T, float>) {
    for (size_t start = 0; start < n; start += kFloatChunk) {
      const size_t len = std::min(kFloatChunk, n - start);
      if (!add_float_chunk(data + start, len, counting)) add_widened(data + start, len, counting);
    }
  } else {
    add_widened(data, n, counting);
  }
}

// Float data is read as it is, without widening it into a chunk of doubles first, unless the
// chunk holds NaN or Inf (then add_widened compacts it).
bool RunningStats::add_float_chunk(const float* v, size_t n, HistogramCounting& counting) {
  const double shift = finite_ == 0 ? v[0] : shift_;
  const FloatScan scan = float_kernels().scan(v, n, shift);
  if (!scan.finite) return false;
  count_ += static_cast<int64_t>(n);
  shift_ = shift;
  add_finite_chunk(v, n, ChunkMoments{scan.sum, scan.sum_sq, scan.min, scan.max, scan.zeros},
                   counting);
  return true;
}

template <class T>
void RunningStats::add_widened(const T* data, size_t n, HistogramCounting& counting) {
  double chunk[kChunk];
  for (size_t start = 0; start < n; start += kChunk) {
    const size_t len = std::min(kChunk, n - start);
    count_ += static_cast<int64_t>(len);
    int64_t nans = 0;
    const size_t finite = load_chunk(data + start, len, chunk, nans);
    nans_ += nans;
    if (finite == 0) continue;
    if (finite_ == 0) shift_ = chunk[0];
    add_finite_chunk(chunk, finite, first_pass(chunk, finite, shift_), counting);
  }
}

// m2 = sum_sq - sum^2 / n from the first pass's sums about the shift (the first finite value
// seen) when that subtraction cancels at most 6 bits: the mean lies within a few
// standard deviations of the shift, as for nearly all data. Otherwise a second pass takes
// deviations from the first pass's mean, with Chan, Golub & LeVeque's correction term for the
// rounding in that mean, so data far from the shift keeps its digits.
template <class V>
void RunningStats::add_finite_chunk(const V* v, size_t n, const ChunkMoments& m,
                                    HistogramCounting& counting) {
  constexpr double kMaxCancellation = 64;  // sum_sq / m2: 6 bits
  const double count = static_cast<double>(n);
  double mean = m.sum / count;
  double m2 = m.sum_sq - m.sum * mean;
  if (!(m2 * kMaxCancellation >= m.sum_sq)) {
    const Deviations d = deviations(v, n, shift_, mean);
    m2 = std::max(0.0, d.sum_sq - d.sum * d.sum / count);  // >= 0 up to rounding
    mean += d.sum / count;
  }
  merge_moments(static_cast<int64_t>(n), mean, m2);
  min_ = std::min(min_, m.min);
  max_ = std::max(max_, m.max);
  zeros_ += m.zeros;
  counting.cover(std::max(-m.min, m.max));
  counting.add(v, n);
}

// Chan, Golub & LeVeque's pairwise update of (n, mean, m2); mean is relative to shift_.
void RunningStats::merge_moments(int64_t n, double mean, double m2) {
  if (n == 0) return;
  const int64_t total = finite_ + n;
  const double delta = mean - mean_;
  const double weight = static_cast<double>(n) / static_cast<double>(total);
  mean_ += delta * weight;
  m2_ += m2 + delta * delta * static_cast<double>(finite_) * weight;
  finite_ = total;
}

void RunningStats::merge(const RunningStats& other) {
  hist_.merge(other.hist_);
  if (finite_ == 0) shift_ = other.shift_;
  merge_moments(other.finite_, other.mean_ + (other.shift_ - shift_), other.m2_);
  count_ += other.count_;
  nans_ += other.nans_;
  zeros_ += other.zeros_;
  min_ = std::min(min_, other.min_);
  max_ = std::max(max_, other.max_);
}

double RunningStats::mean() const { return finite_ > 0 ? shift_ + mean_ : kNaN; }

double RunningStats::std() const {
  return finite_ > 1 ? std::sqrt(m2_ / static_cast<double>(finite_ - 1)) : kNaN;
}

double RunningStats::min() const { return finite_ > 0 ? min_ : kNaN; }
double RunningStats::max() const { return finite_ > 0 ? max_ : kNaN; }
double RunningStats::abs_max() const { return finite_ > 0 ? std::max(-min_, max_) : kNaN; }

// sum x^2 = m2 + n * mean^2: both terms are non-negative, so no cancellation.
double RunningStats::l2_norm() const {
  const double mean = shift_ + mean_;
  return std::sqrt(m2_ + static_cast<double>(finite_) * mean * mean);
}

double RunningStats::zero_fraction() const {
  return finite_ > 0 ? static_cast<double>(zeros_) / static_cast<double>(finite_) : kNaN;
}

template void RunningStats::add<float>(const float*, size_t);
template void RunningStats::add<double>(const double*, size_t);
template void RunningStats::add<int64_t>(const int64_t*, size_t);
template void RunningStats::add<int32_t>(const int32_t*, size_t);
template void RunningStats::add<int16_t>(const int16_t*, size_t);
template void RunningStats::add<int8_t>(const int8_t*, size_t);
template void RunningStats::add<uint8_t>(const uint8_t*, size_t);
template void RunningStats::add<bool>(const bool*, size_t);

}  // namespace modrec
