#include "stats/float_kernels.h"

#include <algorithm>
#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define MODREC_HAVE_AVX2_KERNELS 1
#endif

namespace modrec {
namespace {

// Portable versions: one value at a time.

// A float NaN or Inf (or one as the shift) makes the sum of squares NaN or Inf, and finite floats
// never do: their squared differences stay below 2^257, so that sum is the test for both.

FloatScan scan_portable(const float* x, size_t n, double shift) {
  FloatScan s;
  s.min = s.max = x[0];
  for (size_t i = 0; i < n; ++i) {
    const double d = static_cast<double>(x[i]) - shift;
    s.sum += d;
    s.sum_sq += d * d;
    s.min = std::min(s.min, x[i]);
    s.max = std::max(s.max, x[i]);
    s.zeros += x[i] == 0;
  }
  s.finite = std::isfinite(s.sum_sq);
  return s;
}

Deviations deviations_portable(const float* x, size_t n, double shift, double center) {
  Deviations d;
  for (size_t i = 0; i < n; ++i) {
    const double v = (static_cast<double>(x[i]) - shift) - center;
    d.sum += v;
    d.sum_sq += v * v;
  }
  return d;
}

int32_t bin_of(float x, float scale, int32_t half) {
  const float t = x * scale;
  const int32_t i = static_cast<int32_t>(t);
  const int32_t below = (t < static_cast<float>(i)) | ((t == 0) & (x < 0));
  return i + half - below;
}

void bins_portable(const float* x, size_t n, float scale, int32_t half, int32_t* out) {
  for (size_t k = 0; k < n; ++k) out[k] = bin_of(x[k], scale, half);
}

#ifdef MODREC_HAVE_AVX2_KERNELS
#define MODREC_AVX2 __attribute__((target("avx2,fma")))

MODREC_AVX2 double sum_lanes(__m256d v) {
  const __m128d pair = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
  return _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)));
}

// The eight floats of v as two vectors of four doubles.
MODREC_AVX2 __m256d low_half(__m256 v) { return _mm256_cvtps_pd(_mm256_castps256_ps128(v)); }
MODREC_AVX2 __m256d high_half(__m256 v) { return _mm256_cvtps_pd(_mm256_extractf128_ps(v, 1)); }

MODREC_AVX2 float reduce(__m256 v, float (*op)(float, float)) {
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, v);
  float r = lanes[0];
  for (int l = 1; l < 8; ++l) r = op(r, lanes[l]);
  return r;
}

float min_of(float a, float b) { return std::min(a, b); }
float max_of(float a, float b) { return std::max(a, b); }

// Four double accumulators per sum (two per eight floats) hide the latency of the additions.
MODREC_AVX2 FloatScan scan_avx2(const float* x, size_t n, double shift) {
  const __m256d vshift = _mm256_set1_pd(shift);
  __m256 lo = _mm256_set1_ps(x[0]), hi = lo;
  __m256i zeros = _mm256_setzero_si256();  // per lane, -1 per zero: n is far below 2^31
  __m256d s[4], q[4];
  for (int k = 0; k < 4; ++k) s[k] = q[k] = _mm256_setzero_pd();
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int h = 0; h < 2; ++h) {
      const __m256 v = _mm256_loadu_ps(x + i + 8 * h);
      lo = _mm256_min_ps(lo, v);
      hi = _mm256_max_ps(hi, v);
      zeros = _mm256_add_epi32(
          zeros, _mm256_castps_si256(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_EQ_OQ)));
      const __m256d d[2] = {_mm256_sub_pd(low_half(v), vshift),
                            _mm256_sub_pd(high_half(v), vshift)};
      for (int k = 0; k < 2; ++k) {
        s[2 * h + k] = _mm256_add_pd(s[2 * h + k], d[k]);
        q[2 * h + k] = _mm256_fmadd_pd(d[k], d[k], q[2 * h + k]);
      }
    }
  FloatScan r = i < n ? scan_portable(x + i, n - i, shift) : FloatScan{true, 0, 0, x[0], x[0], 0};
  alignas(32) int32_t zero_lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(zero_lanes), zeros);
  for (int32_t z : zero_lanes) r.zeros -= z;
  r.sum += sum_lanes(_mm256_add_pd(_mm256_add_pd(s[0], s[1]), _mm256_add_pd(s[2], s[3])));
  r.sum_sq += sum_lanes(_mm256_add_pd(_mm256_add_pd(q[0], q[1]), _mm256_add_pd(q[2], q[3])));
  r.finite = std::isfinite(r.sum_sq);
  r.min = std::min(r.min, reduce(lo, min_of));
  r.max = std::max(r.max, reduce(hi, max_of));
  return r;
}

MODREC_AVX2 Deviations deviations_avx2(const float* x, size_t n, double shift, double center) {
  const __m256d vshift = _mm256_set1_pd(shift), vcenter = _mm256_set1_pd(center);
  __m256d s[2] = {_mm256_setzero_pd(), _mm256_setzero_pd()};
  __m256d q[2] = {_mm256_setzero_pd(), _mm256_setzero_pd()};
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    const __m256d d[2] = {_mm256_sub_pd(_mm256_sub_pd(low_half(v), vshift), vcenter),
                          _mm256_sub_pd(_mm256_sub_pd(high_half(v), vshift), vcenter)};
    for (int h = 0; h < 2; ++h) {
      s[h] = _mm256_add_pd(s[h], d[h]);
      q[h] = _mm256_fmadd_pd(d[h], d[h], q[h]);
    }
  }
  Deviations r = i < n ? deviations_portable(x + i, n - i, shift, center) : Deviations{};
  r.sum += sum_lanes(_mm256_add_pd(s[0], s[1]));
  r.sum_sq += sum_lanes(_mm256_add_pd(q[0], q[1]));
  return r;
}

// floor(x * scale) with one rounding instruction; the -0 test only where products can underflow.
template <bool kMayUnderflow>
MODREC_AVX2 void bins_avx2_loop(const float* x, size_t n, float scale, int32_t half, int32_t* out) {
  const __m256 vscale = _mm256_set1_ps(scale), zero = _mm256_setzero_ps();
  const __m256i vhalf = _mm256_set1_epi32(half);
  size_t k = 0;
  for (; k + 8 <= n; k += 8) {
    const __m256 v = _mm256_loadu_ps(x + k);
    const __m256 t = _mm256_mul_ps(v, vscale);
    __m256i bin = _mm256_add_epi32(_mm256_cvttps_epi32(_mm256_floor_ps(t)), vhalf);
    if constexpr (kMayUnderflow) {  // all ones (-1) where an underflowed product was negative
      const __m256 below =
          _mm256_and_ps(_mm256_cmp_ps(t, zero, _CMP_EQ_OQ), _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
      bin = _mm256_add_epi32(bin, _mm256_castps_si256(below));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + k), bin);
  }
  bins_portable(x + k, n - k, scale, half, out + k);
}

MODREC_AVX2 void bins_avx2(const float* x, size_t n, float scale, int32_t half, int32_t* out) {
  if (scale < 1)
    bins_avx2_loop<true>(x, n, scale, half, out);
  else
    bins_avx2_loop<false>(x, n, scale, half, out);
}

bool has_avx2() { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }
#endif

}  // namespace

const FloatKernels& portable_float_kernels() {
  static const FloatKernels k{scan_portable, deviations_portable, bins_portable};
  return k;
}

const FloatKernels* avx2_float_kernels() {
#ifdef MODREC_HAVE_AVX2_KERNELS
  static const FloatKernels k{scan_avx2, deviations_avx2, bins_avx2};
  static const bool supported = has_avx2();
  return supported ? &k : nullptr;
#else
  return nullptr;
#endif
}

const FloatKernels& float_kernels() {
  static const FloatKernels& k =
      avx2_float_kernels() ? *avx2_float_kernels() : portable_float_kernels();
  return k;
}

}  // namespace modrec
