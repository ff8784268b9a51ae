#include "arguments/input_batches.h"

#include <doctest/doctest.h>

#include "tensor_files/test_fixtures.h"
#include "util/error_test_fixtures.h"
#include "sources/memory_source.h"

using namespace modrec;
using modrec::test::counting;
using modrec::testing::error_of;

TEST_CASE("batches cover the shard's range, batch by batch") {
  const ForwardArguments inputs =
      positional_arguments({memory_source(counting(0, 10)), memory_source(counting(100, 10))});
  const InputBatches batches(inputs, memory_source(at::arange(10)), 4, Shard{1, 2}, at::kCPU);
  CHECK(batches.range().start == 5);
  CHECK(batches.range().end == 10);
  CHECK(batches.total_samples() == 10);
  REQUIRE(batches.count() == 2);
  const InputBatch first = batches.get(0), last = batches.get(1);
  CHECK(at::equal(first.inputs[1].toTensor(), counting(105, 4)));
  CHECK(at::equal(last.inputs[0].toTensor(), counting(9, 1)));
  CHECK(at::equal(last.targets, at::arange(9, 10)));
  const InputBatches unbatched(inputs, nullptr, 0, Shard{0, 3}, at::kCPU);
  CHECK(unbatched.count() == 1);
  CHECK(unbatched.get(0).inputs[0].toTensor().size(0) == 3);
}

TEST_CASE("without batching or sharding every input goes whole, whatever its shape") {
  const ForwardArguments inputs =
      positional_arguments({memory_source(counting(0, 4)), memory_source(at::ones({2})),
                            memory_source(at::scalar_tensor(1.5))});
  const InputBatches whole(inputs, nullptr, 0, std::nullopt, at::kCPU);
  CHECK(whole.count() == 1);
  CHECK(whole.get(0).inputs[2].toTensor().dim() == 0);
  auto [code, line] = error_of([&] { InputBatches(inputs, nullptr, 2, std::nullopt, at::kCPU); });
  CHECK(code == Exit::usage);
  CHECK(line.find("--batch-size") != std::string::npos);
  std::tie(code, line) = error_of([&] { InputBatches(inputs, nullptr, 0, Shard{0, 2}, at::kCPU); });
  CHECK(code == Exit::usage);
  CHECK(line.find("--shard") != std::string::npos);
  std::tie(code, line) = error_of([&] {
    InputBatches({inputs[0]}, memory_source(at::arange(3)), 0, std::nullopt, at::kCPU, "y.pt");
  });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("y.pt") != std::string::npos);
}

TEST_CASE("batching cuts the tensors and passes the other arguments to every batch") {
  ForwardArguments inputs = positional_arguments({memory_source(counting(0, 5))});
  inputs.push_back({"steps", nullptr, c10::IValue(int64_t{3})});
  inputs.push_back({"mask", nullptr, c10::IValue()});
  const InputBatches batches(inputs, nullptr, 2, std::nullopt, at::kCPU);
  REQUIRE(batches.count() == 3);
  CHECK(batches.sources().size() == 1);
  for (int64_t i = 0; i < batches.count(); ++i) {
    const InputBatch batch = batches.get(i);
    REQUIRE(batch.inputs.size() == 3);
    CHECK(batch.inputs[1].toInt() == 3);
    CHECK(batch.inputs[2].isNone());
  }
  CHECK(at::equal(batches.get(2).inputs[0].toTensor(), counting(4, 1)));
}
