// summarize_tensor: large tensors are split over LibTorch's threads, and the parts merge to what
// one pass over the whole tensor gives.
#include "record/tensor_stats.h"

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <doctest/doctest.h>

using namespace modrec;

TEST_CASE("statistics use LibTorch's intra-op threads") {
  const int before = at::get_num_threads();
  at::set_num_threads(2);
  CHECK(statistics_threads() == 2);
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
  CHECK(split.dtype == "float32");
  at::set_num_threads(before);
}
