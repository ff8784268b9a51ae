#include "ops/quantized/quantized_ops.h"

#include <doctest/doctest.h>
#include <torch/autograd.h>
#include <torch/serialize.h>

#include "instrument/pt2/dispatcher_ops.h"
#include "util/python_test_fixtures.h"

using namespace modrec;
using modrec::test::slurp;

namespace {

// quantized_ops_fixtures.py's loss weights.
at::Tensor weights(const at::Tensor& t) {
  return (at::arange(t.numel(), at::kDouble).remainder(7) + 1).reshape(t.sizes());
}

std::string describe(const std::string& target, size_t index) {
  return target + " (case " + std::to_string(index) + ")";
}

// Same dtype, shape and bits (NaN equal to NaN), or both missing.
bool same(const at::Tensor& got, const c10::IValue& want) {
  if (want.isNone()) return !got.defined();
  const at::Tensor w = want.toTensor();
  return got.defined() && got.scalar_type() == w.scalar_type() && got.sizes() == w.sizes() &&
         at::equal(got.isnan(), w.isnan()) &&
         at::equal(at::where(got.isnan(), 0, got), at::where(w.isnan(), 0, w));
}

}  // namespace

TEST_CASE("the quantization operators defined in Python give Python's outputs and gradients") {
  modrec::test::TempDir dir("quantized-ops", "/tests/fixtures/quantized_ops_fixtures.py");
  const std::string bytes = slurp(dir.path + "/cases.pt");
  const c10::IValue cases = torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
  size_t index = 0;
  for (const c10::IValue& entry : cases.toList().vec()) {
    const auto& c = entry.toTupleRef().elements();
    const std::string target = c[0].toStringRef();
    const std::string where = describe(target, index++);
    INFO(where);
    const auto op = DispatcherOp::find(target);
    REQUIRE(op);
    std::vector<c10::IValue> args = c[1].toList().vec();
    for (c10::IValue& arg : args) {  // a block size: ints, as torch.export's int lists come
      if (!arg.isList()) continue;
      c10::List<int64_t> ints;
      for (const c10::IValue& v : arg.toListRef()) ints.push_back(v.toInt());
      arg = ints;
    }
    std::vector<at::Tensor> differentiable;
    for (const c10::IValue& i : c[3].toList().vec()) {
      at::Tensor& t = args[static_cast<size_t>(i.toInt())].toTensor();
      t = t.detach().requires_grad_(true);
      differentiable.push_back(t);
    }
    const auto& params = op->schema().arguments();
    for (size_t i = args.size(); i < params.size(); ++i) args.push_back(*params[i].default_value());
    std::vector<at::Tensor> outs;
    for (const c10::IValue& r : op->call(args)) outs.push_back(r.toTensor());
    const auto want = c[2].toList().vec();
    REQUIRE(outs.size() == want.size());
    for (size_t i = 0; i < outs.size(); ++i) CHECK(same(outs[i], want[i]));
    const auto want_grads = c[4].toList().vec();
    if (want_grads.empty()) continue;
    at::Tensor loss = at::zeros({}, at::kDouble);
    bool any = false;
    for (const at::Tensor& o : outs)
      if (o.requires_grad()) {
        loss = loss + (o.to(at::kDouble) * weights(o)).sum();
        any = true;
      }
    const auto grads = any ? torch::autograd::grad({loss}, differentiable, {}, std::nullopt, false,
                                                   /*allow_unused=*/true)
                           : std::vector<at::Tensor>(differentiable.size());
    for (size_t i = 0; i < grads.size(); ++i) CHECK(same(grads[i], want_grads[i]));
  }
  CHECK(index > 40);
}

TEST_CASE("only the namespaces defined in Python only are defined, once") {
  CHECK_FALSE(pt2::define_python_only_operators("aten"));
  CHECK_FALSE(pt2::define_python_only_operators("myops"));
  DispatcherOp::find("torch.ops.torchao.quantize_affine.default");
  CHECK_FALSE(pt2::define_python_only_operators("torchao"));
  CHECK(DispatcherOp::find("torch.ops.torchao.dequantize_affine.default"));
  CHECK_FALSE(DispatcherOp::find("torch.ops.torchao.no_such_op.default"));
}
