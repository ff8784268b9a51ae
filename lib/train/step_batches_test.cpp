#include "train/step_batches.h"

#include <doctest/doctest.h>

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

std::vector<int64_t> rows_of(const StepBatch& b) {
  const at::Tensor t = b.inputs.at(0).toTensor().contiguous();
  return {t.data_ptr<int64_t>(), t.data_ptr<int64_t>() + t.numel()};
}

}  // namespace

TEST_CASE("steps take the data in order, the last batch of a pass short, then start over") {
  StepBatches batches({at::arange(5)}, at::arange(10, 15), 2, std::nullopt);
  CHECK((rows_of(batches.next()) == std::vector<int64_t>{0, 1}));
  CHECK((rows_of(batches.next()) == std::vector<int64_t>{2, 3}));
  const StepBatch short_one = batches.next();
  CHECK((rows_of(short_one) == std::vector<int64_t>{4}));
  CHECK(short_one.targets.item<int64_t>() == 14);
  CHECK((rows_of(batches.next()) == std::vector<int64_t>{0, 1}));
}

TEST_CASE("--shuffle draws each pass's order from one generator seeded once") {
  StepBatches batches({at::arange(6)}, {}, 3, uint64_t{7});
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(7);
  for (int pass = 0; pass < 3; ++pass) {
    const at::Tensor order = at::randperm(6, gen, at::kLong);
    std::vector<int64_t> got = rows_of(batches.next()), second = rows_of(batches.next());
    got.insert(got.end(), second.begin(), second.end());
    CHECK((got == std::vector<int64_t>(order.data_ptr<int64_t>(), order.data_ptr<int64_t>() + 6)));
  }
}

TEST_CASE("a batch size of 0 or above the sample count takes every sample each step") {
  for (int64_t size : {0, 9}) {
    StepBatches batches({at::arange(4)}, {}, size, std::nullopt);
    CHECK(rows_of(batches.next()).size() == 4);
    CHECK(rows_of(batches.next()).size() == 4);
  }
}

TEST_CASE("inputs and targets that do not share their samples are refused") {
  auto [code, line] = error_of([] {
    StepBatches({at::arange(4), at::arange(3)}, {}, 1, std::nullopt);
  });
  CHECK(code == Exit::usage);
  CHECK(line.find("--input") != std::string::npos);
  std::tie(code, line) =
      error_of([] { StepBatches({at::arange(4)}, at::arange(3), 1, std::nullopt); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("--targets") != std::string::npos);
  std::tie(code, line) =
      error_of([] { StepBatches({at::scalar_tensor(1.0)}, {}, 1, std::nullopt); });
  CHECK(code == Exit::usage);
}

TEST_CASE("values that are no tensors (--arg) go unchanged to every step") {
  StepBatches batches({at::arange(3), c10::IValue(int64_t{4}), c10::IValue()}, {}, 2, std::nullopt);
  for (int step = 0; step < 3; ++step) {
    const StepBatch batch = batches.next();
    REQUIRE(batch.inputs.size() == 3);
    CHECK(batch.inputs[1].toInt() == 4);
    CHECK(batch.inputs[2].isNone());
  }
  CHECK(batches.steps_per_pass() == 2);
}
