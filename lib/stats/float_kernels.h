// The per-element work of RunningStats and SymmetricHistogram on float data, the dtype of nearly
// every recorded tensor (torch-free). Each kernel reads the floats themselves, eight per AVX2
// instruction where the CPU has AVX2 and FMA (picked once at run time), otherwise one at a time;
// both give the same counts, extremes and bins, and sums equal up to summation order.
#pragma once
#include <cstddef>
#include <cstdint>

namespace modrec {

struct FloatScan {
  bool finite = true;  // false: some value is NaN or +/-Inf, and the other fields are meaningless
  double sum = 0;      // of x - shift, in double
  double sum_sq = 0;   // of (x - shift)^2, in double
  float min = 0, max = 0;
  int64_t zeros = 0;
};

struct Deviations {
  double sum = 0, sum_sq = 0;  // of (x - shift) - center, in double
};

// The kernels, for 0 < n < 2^31 values each.
struct FloatKernels {
  FloatScan (*scan)(const float* x, size_t n, double shift);
  Deviations (*deviations)(const float* x, size_t n, double shift, double center);
  // out[k] = floor(x[k] * scale) + half for finite x[k]. SymmetricHistogram passes a power-of-two
  // scale with |x * scale| <= half, so the product is exact unless it underflows (only possible
  // for scale < 1), and one that underflows to -0 still counts as below 0.
  void (*bins)(const float* x, size_t n, float scale, int32_t half, int32_t* out);
};

const FloatKernels& float_kernels();           // the fastest this CPU runs
const FloatKernels& portable_float_kernels();  // one value at a time
const FloatKernels* avx2_float_kernels();      // nullptr without AVX2 and FMA (CPU or build)

}  // namespace modrec
