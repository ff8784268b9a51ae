#include "stats/float_kernels.h"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <doctest/doctest.h>

namespace modrec {
namespace {

// Lengths around the vector widths (8, 16) and a whole chunk; data with zeros, -0 and ties.
std::vector<std::vector<float>> arrays() {
  std::mt19937 rng(11);
  std::normal_distribution<float> normal(0.0f, 3.0f);
  std::vector<std::vector<float>> out;
  for (size_t n : {1, 7, 8, 9, 15, 16, 17, 31, 33, 100, 2048}) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = i % 5 == 0 ? (i % 2 ? -0.0f : 0.0f) : normal(rng);
    out.push_back(v);
  }
  return out;
}

TEST_CASE("the AVX2 float kernels agree with the portable ones") {
  const FloatKernels* fast = avx2_float_kernels();
  if (!fast) {
    MESSAGE("no AVX2 here: only the portable kernels run");
    return;
  }
  const FloatKernels& slow = portable_float_kernels();
  for (const auto& v : arrays()) {
    INFO("n = ", v.size());
    const FloatScan a = fast->scan(v.data(), v.size(), 0.25);
    const FloatScan b = slow.scan(v.data(), v.size(), 0.25);
    CHECK(a.finite);
    CHECK(a.min == b.min);
    CHECK(a.max == b.max);
    CHECK(a.zeros == b.zeros);
    CHECK(a.sum == doctest::Approx(b.sum).epsilon(1e-12));
    CHECK(a.sum_sq == doctest::Approx(b.sum_sq).epsilon(1e-12));
    const Deviations da = fast->deviations(v.data(), v.size(), 0.25, 0.5);
    const Deviations db = slow.deviations(v.data(), v.size(), 0.25, 0.5);
    CHECK(da.sum == doctest::Approx(db.sum).epsilon(1e-12));
    CHECK(da.sum_sq == doctest::Approx(db.sum_sq).epsilon(1e-12));
    for (float scale : {2.0f, 0.5f, 0x1p-100f}) {
      std::vector<int32_t> ia(v.size()), ib(v.size());
      fast->bins(v.data(), v.size(), scale, 32, ia.data());
      slow.bins(v.data(), v.size(), scale, 32, ib.data());
      CHECK(ia == ib);
    }
  }
}

TEST_CASE("float kernels flag NaN and Inf anywhere in the data") {
  for (const FloatKernels* k : {&portable_float_kernels(), avx2_float_kernels()}) {
    if (!k) continue;
    for (float bad :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
          -std::numeric_limits<float>::infinity()})
      for (size_t at : {0, 5, 16, 39}) {
        std::vector<float> v(40, 1.0f);
        v[at] = bad;
        CHECK_FALSE(k->scan(v.data(), v.size(), 0.0).finite);
      }
    std::vector<float> v(40, std::numeric_limits<float>::max());
    CHECK(k->scan(v.data(), v.size(), 0.0).finite);
  }
}

TEST_CASE("bins: floor of the scaled value, an edge going to the bin above") {
  const float x[] = {-4.0f, -3.5f, -0.0f, 0.0f, 0.5f, 3.999f, 4.0f, -1e-45f};
  const int32_t want[] = {0, 0, 4, 4, 4, 7, 8, 3};
  for (const FloatKernels* k : {&portable_float_kernels(), avx2_float_kernels()}) {
    if (!k) continue;
    int32_t out[8];
    k->bins(x, 8, 1.0f, 4, out);
    CHECK(std::vector<int32_t>(out, out + 8) == std::vector<int32_t>(want, want + 8));
  }
  // -1e-45 * 2^-10 underflows to -0 and still belongs below 0.
  const FloatKernels& k = float_kernels();
  int32_t out[8];
  k.bins(x, 8, 0x1p-10f, 4, out);
  CHECK(out[7] == 3);
}

}  // namespace
}  // namespace modrec
