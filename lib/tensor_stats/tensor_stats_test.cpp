// summarize_tensor: large tensors are split over LibTorch's threads, and the parts merge to what
// one pass over the whole tensor gives.
#include "tensor_stats/tensor_stats.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <doctest/doctest.h>

#include <limits>

using namespace modrec;

TEST_CASE("statistics use as many threads as LibTorch's intra-op threads") {
  const int before = at::get_num_threads();
  at::set_num_threads(3);
  CHECK(statistics_threads() == 3);
  at::set_num_threads(before);
}

TEST_CASE("a tensor split over threads has the statistics of one pass") {
  const int before = at::get_num_threads();
  at::set_num_threads(2);
  const at::Tensor t = at::randn({4, 100000}, at::TensorOptions().dtype(at::kFloat));
  const TensorSummary split = summarize_tensor(t);
  RunningStats whole;
  whole.add(t.data_ptr<float>(), static_cast<size_t>(t.numel()));
  CHECK(split.stats.count() == whole.count());
  CHECK(split.stats.min() == whole.min());
  CHECK(split.stats.max() == whole.max());
  CHECK(split.stats.zero_count() == whole.zero_count());
  CHECK(split.stats.mean() == doctest::Approx(whole.mean()).epsilon(1e-12));
  CHECK(split.stats.std() == doctest::Approx(whole.std()).epsilon(1e-12));
  CHECK(split.stats.histogram().counts == whole.histogram().counts);
  CHECK(split.shape == std::vector<int64_t>{4, 100000});
  CHECK((split.dtype == at::kFloat));
  at::set_num_threads(before);
}

namespace {
// What two ways of summarizing one tensor must give alike to the bit: counts, histogram, shape and
// dtype.
void check_same_counts(const TensorSummary& x, const TensorSummary& y) {
  const RunningStats &a = x.stats, &b = y.stats;
  CHECK(b.count() == a.count());
  CHECK(b.finite_count() == a.finite_count());
  CHECK(b.nan_count() == a.nan_count());
  CHECK(b.inf_count() == a.inf_count());
  CHECK(b.zero_count() == a.zero_count());
  CHECK(b.histogram().edges == a.histogram().edges);
  CHECK(b.histogram().counts == a.histogram().counts);
  CHECK(y.shape == x.shape);
  CHECK((y.dtype == x.dtype));
}
}  // namespace

// --device cuda reduces statistics where the tensor is; the same ATen code runs on the CPU here.
TEST_CASE("statistics reduced with ATen equal RunningStats' kernels") {
  const auto opts = at::TensorOptions().dtype(at::kFloat);
  at::Tensor special = at::randn({1000}, opts);
  special[0] = std::numeric_limits<float>::quiet_NaN();
  special[1] = std::numeric_limits<float>::infinity();
  special[2] = 0;
  special[3] = -1e-38f;
  const std::vector<at::Tensor> cases = {
      at::randn({3, 4001}, opts),
      special,
      at::tensor({-4.0, 4.0, 2.0, -2.0, 0.0}, at::TensorOptions().dtype(at::kDouble)),  // edges, +R
      at::zeros({7}, opts),
      at::full({5}, std::numeric_limits<float>::quiet_NaN(), opts),
      at::empty({0}, opts),
      at::randint(-50, 50, {300}, at::TensorOptions().dtype(at::kLong)),
      at::randn({64}, opts).to(at::kBFloat16),
      at::tensor({1, 0, 1}).to(at::kBool),
      at::randn({100}, opts) * 1e-300 / 1e10,  // underflows to zero in float
      // -1e-300 / R (2^499) underflows to -0 when scaled: still a value below 0
      at::tensor({-1e-300, 1e150, 3.0}, at::TensorOptions().dtype(at::kDouble)),
  };
  for (const auto& t : cases) {
    INFO(t.scalar_type(), " ", t.numel());
    const TensorSummary cpu = summarize_tensor(t);
    const TensorSummary device = summarize_on_device(t);
    check_same_counts(cpu, device);
    const RunningStats &a = cpu.stats, &b = device.stats;
    if (a.finite_count() == 0) continue;
    CHECK(b.min() == a.min());
    CHECK(b.max() == a.max());
    CHECK(std::abs(b.mean() - a.mean()) <= 1e-12 * a.abs_max());
    if (a.finite_count() > 1) CHECK(b.std() == doctest::Approx(a.std()).epsilon(1e-12));
  }
}

// watch's update rows: the change is summarized without being formed, to the same bits.
TEST_CASE("the statistics of a difference equal those of the subtracted tensor") {
  const int before = at::get_num_threads();
  at::set_num_threads(2);
  const auto f32 = at::TensorOptions().dtype(at::kFloat);
  at::Tensor with_nan = at::randn({70000}, f32);
  with_nan[12345] = std::numeric_limits<float>::quiet_NaN();
  const std::vector<std::pair<at::Tensor, at::Tensor>> cases = {
      {at::randn({3, 100003}, f32), at::randn({3, 100003}, f32)},  // two parts, pieces and a rest
      {with_nan, at::randn({70000}, f32)},
      {at::randn({5000}, f32.dtype(at::kDouble)), at::randn({5000}, f32.dtype(at::kDouble))},
      {at::randn({300, 200}, f32).t(), at::randn({200, 300}, f32)},  // not contiguous: at::sub
      {at::randn({64}, f32).to(at::kHalf), at::randn({64}, f32).to(at::kHalf)},
  };
  for (const auto& pair : cases) {
    const at::Tensor &after = pair.first, &prior = pair.second;
    INFO(after.scalar_type(), " ", after.numel());
    const TensorSummary fused = summarize_difference(after, prior);
    const TensorSummary formed = summarize_tensor(after - prior);
    check_same_counts(formed, fused);
    const RunningStats &a = fused.stats, &b = formed.stats;
    CHECK(a.min() == b.min());
    CHECK(a.max() == b.max());
    CHECK(a.mean() == b.mean());
    CHECK(a.m2() == b.m2());
  }
  at::set_num_threads(before);
}
