// TensorSummaryMemo: the same tensor is summarized once, a tensor changed in place anew, and other
// tensors (views, copies, equal values) on their own.
#include "tensor_stats/tensor_summary_memo.h"

#include <ATen/ATen.h>
#include <doctest/doctest.h>

using namespace modrec;

TEST_CASE("a tensor summarized twice gives its summary, changed in place its new one") {
  TensorSummaryMemo memo;
  at::Tensor t = at::randn({1000});
  const TensorSummary first = memo.summarize(t);
  CHECK(memo.summarize(t).stats.max() == first.stats.max());
  t.mul_(2);  // bumps the version: the memo must not answer with the old values
  const TensorSummary doubled = memo.summarize(t);
  CHECK(doubled.stats.max() == 2 * first.stats.max());
  CHECK(doubled.stats.max() == summarize_tensor(t).stats.max());
}

TEST_CASE("views and other tensors are summarized on their own") {
  TensorSummaryMemo memo;
  const at::Tensor t = at::arange(10, at::TensorOptions().dtype(at::kFloat));
  CHECK(memo.summarize(t).stats.count() == 10);
  const at::Tensor head = t.narrow(0, 0, 4);  // same storage, another TensorImpl
  CHECK(memo.summarize(head).stats.max() == 3);
  CHECK(memo.summarize(head).shape == std::vector<int64_t>{4});
  CHECK(memo.summarize(t.reshape({2, 5})).shape == std::vector<int64_t>{2, 5});
}

TEST_CASE("a freed tensor's place is not mistaken for a new tensor's") {
  TensorSummaryMemo memo;
  for (int i = 1; i <= 50; ++i) {  // each new tensor may reuse the memory of the one before
    const at::Tensor t = at::full({64}, static_cast<float>(i));
    CHECK(memo.summarize(t).stats.mean() == i);
  }
}
