#include "memory/saved_tensors.h"

#include <ATen/SequenceNumber.h>
#include <doctest/doctest.h>
#include <torch/torch.h>

namespace modrec {

TEST_CASE("a node lists the tensors it saved") {
  const at::Tensor a = torch::randn({4, 4}, torch::requires_grad());
  const at::Tensor b = torch::randn({4, 4}, torch::requires_grad());
  const at::Tensor c = a * b;
  const auto saved = saved_tensors(*c.grad_fn());
  REQUIRE(saved);
  StorageSet storages = storages_of(*saved);
  CHECK(storages == StorageSet{a.storage().data(), b.storage().data()});
}

TEST_CASE("a span's saved bytes: each storage once, resident ones left out, older nodes not") {
  const at::Tensor x = torch::randn({16}, torch::requires_grad());
  const at::Tensor w = torch::randn({16}, torch::requires_grad());
  const uint64_t start = at::sequence_number::peek();
  const at::Tensor y = x * w;  // saves x and w
  const uint64_t middle = at::sequence_number::peek();
  const at::Tensor z = y.relu();  // saves its result
  const at::Tensor s = z * z;     // saves z twice
  const uint64_t end = at::sequence_number::peek();
  const StorageSet weights = storages_of({w});
  CHECK(saved_in_span({s}, start, end, weights).bytes == 2 * 16 * 4);  // x, z
  CHECK(saved_in_span({s}, start, end, {}).bytes == 3 * 16 * 4);       // x, w, z
  CHECK(saved_in_span({s}, middle, end, weights).bytes == 16 * 4);     // z
  CHECK(saved_in_span({x}, start, end, weights).bytes == 0);           // a leaf: no node
  CHECK(saved_in_span({s}, start, end, weights).untold.empty());
}

TEST_CASE("an in-place operator's node is found from the tensor it changed") {
  at::Tensor x = torch::randn({8}, torch::requires_grad()) * 1;
  const uint64_t start = at::sequence_number::peek();
  x.relu_();  // saves its result: x itself
  CHECK(saved_in_span({x}, start, at::sequence_number::peek(), {}).bytes == 8 * 4);
}

}  // namespace modrec
