#include "instrument/pt2/symbolic_ops.h"

#include <doctest/doctest.h>

#include "instrument/pt2/node_args.h"

using namespace modrec::pt2;

namespace {

c10::IValue run(const std::string& target, std::vector<c10::IValue> args) {
  const SymbolicOp op = symbolic_op(target);
  REQUIRE(static_cast<bool>(op));
  return op(args);
}

}  // namespace

TEST_CASE("sizes compute with Python's arithmetic") {
  CHECK(run("_operator.mul", {6, 2}).toInt() == 12);
  CHECK(run("_operator.add", {6, true}).toInt() == 7);
  CHECK(run("_operator.sub", {1, 2.5}).toDouble() == -1.5);
  // floor division and modulo round toward negative infinity: -7 // 2 == -4, -7 % 3 == 2,
  // 7 % -3 == -2 in Python
  CHECK(run("_operator.floordiv", {-7, 2}).toInt() == -4);
  CHECK(run("_operator.floordiv", {7, 2}).toInt() == 3);
  CHECK(run("_operator.floordiv", {-7.0, 2}).toDouble() == -4.0);
  CHECK(run("_operator.mod", {-7, 3}).toInt() == 2);
  CHECK(run("_operator.mod", {7, -3}).toInt() == -2);
  CHECK(run("_operator.truediv", {7, 2}).toDouble() == 3.5);
  CHECK(run("_operator.pow", {2, 10}).toInt() == 1024);
  CHECK(run("_operator.pow", {2, -1}).toDouble() == 0.5);
  CHECK(run("_operator.neg", {3}).toInt() == -3);
  CHECK(run("math.trunc", {-2.7}).toInt() == -2);
  CHECK(run("torch.sym_float", {3}).toDouble() == 3.0);
  CHECK(run("torch.sym_max", {3, 8}).toInt() == 8);
  CHECK(run("torch.sym_min", {3, 8}).toInt() == 3);
  CHECK(run("torch.sym_ite", {false, 1, 2}).toInt() == 2);
}

TEST_CASE("size checks give bools") {
  CHECK(run("_operator.ge", {0, 0}).toBool());
  CHECK_FALSE(run("_operator.lt", {2, 1.5}).toBool());
  CHECK(run("_operator.ne", {2, 3}).toBool());
  CHECK(run("_operator.and_", {true, true}).toBool());
  CHECK(run("_operator.or_", {6, 1}).toInt() == 7);  // ints: bitwise
  CHECK_FALSE(run("torch.sym_not", {true}).toBool());
}

TEST_CASE("what no size is refuses in words, and other targets are not these") {
  CHECK_THROWS_AS(run("_operator.floordiv", {1, 0}), UnsupportedArgument);
  CHECK_THROWS_AS(run("_operator.mul", {1}), UnsupportedArgument);
  CHECK_THROWS_AS(run("_operator.mul", {1, "a"}), UnsupportedArgument);
  CHECK(!symbolic_op("torch.ops.aten.mul.Tensor"));
  CHECK(!symbolic_op("builtins.print"));
}
