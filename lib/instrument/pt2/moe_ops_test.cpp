#include "ops/transformers/moe_ops.h"

#include <doctest/doctest.h>
#include <torch/autograd.h>
#include <torch/serialize.h>

#include "instrument/pt2/dispatcher_ops.h"
#include "util/python_test_fixtures.h"

using namespace modrec;

TEST_CASE("transformers' grouped_mm_fallback gives Python's outputs and gradients") {
  modrec::test::TempDir dir("moe-ops", "/tests/fixtures/moe_ops_fixtures.py");
  const std::string bytes = modrec::test::slurp(dir.path + "/cases.pt");
  const c10::IValue cases = torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
  const auto op = DispatcherOp::find("torch.ops.transformers.grouped_mm_fallback.default");
  REQUIRE(op);
  for (const c10::IValue& entry : cases.toList().vec()) {
    const auto& c = entry.toTupleRef().elements();
    const at::Tensor x = c[0].toTensor().detach().requires_grad_(true);
    const at::Tensor w = c[1].toTensor().detach().requires_grad_(true);
    const at::Tensor out = op->call({x, w, c[2]}).at(0).toTensor();
    CHECK(at::equal(out, c[4].toTensor()));
    (out * c[3].toTensor()).sum().backward();
    CHECK(at::equal(x.grad(), c[5].toTensor()));
    CHECK(at::equal(w.grad(), c[6].toTensor()));
  }
}
