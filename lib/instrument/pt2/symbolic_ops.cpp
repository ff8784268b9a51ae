#include "instrument/pt2/symbolic_ops.h"

#include <cmath>
#include <map>

#include "instrument/pt2/node_args.h"

namespace modrec::pt2 {
namespace {

using Args = std::vector<c10::IValue>;

const c10::IValue& arg(const Args& args, size_t i) {
  if (i >= args.size())
    throw UnsupportedArgument("it takes " + std::to_string(i + 1) + " arguments, " +
                              std::to_string(args.size()) + " given");
  const c10::IValue& v = args[i];
  if (!v.isInt() && !v.isDouble() && !v.isBool())
    throw UnsupportedArgument("its argument " + std::to_string(i) + " is a " + v.tagKind() +
                              ", not a number");
  return v;
}

double as_float(const c10::IValue& v) {
  return v.isDouble() ? v.toDouble() : static_cast<double>(v.isBool() ? v.toBool() : v.toInt());
}
int64_t as_int(const c10::IValue& v) {
  return v.isBool() ? v.toBool() : v.isInt() ? v.toInt() : static_cast<int64_t>(v.toDouble());
}
bool either_float(const Args& args) { return arg(args, 0).isDouble() || arg(args, 1).isDouble(); }

// Python's binary arithmetic: a float when either side is one, else an int.
template <class IntOp, class FloatOp>
c10::IValue arithmetic(const Args& args, IntOp int_op, FloatOp float_op) {
  if (either_float(args)) return float_op(as_float(args[0]), as_float(args[1]));
  return int_op(as_int(args[0]), as_int(args[1]));
}

template <class Compare>
c10::IValue comparison(const Args& args, Compare compare) {
  if (either_float(args)) return compare(as_float(args[0]), as_float(args[1]));
  return compare(as_int(args[0]), as_int(args[1]));
}

void check_divisor(const c10::IValue& divisor) {
  if (as_float(divisor) == 0) throw UnsupportedArgument("it divides by zero");
}

int64_t floor_div(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

int64_t int_pow(int64_t base, int64_t exp) {
  int64_t out = 1;
  for (int64_t i = 0; i < exp; ++i) out *= base;
  return out;
}

c10::IValue floordiv(const Args& args) {
  check_divisor(arg(args, 1));
  return arithmetic(args, floor_div, [](double a, double b) { return std::floor(a / b); });
}

c10::IValue mod(const Args& args) {
  check_divisor(arg(args, 1));
  return arithmetic(
      args, [](int64_t a, int64_t b) { return a - floor_div(a, b) * b; },
      [](double a, double b) { return a - std::floor(a / b) * b; });
}

c10::IValue pow(const Args& args) {
  if (!either_float(args) && as_int(args[1]) >= 0) return int_pow(as_int(args[0]), as_int(args[1]));
  return std::pow(as_float(args[0]), as_float(args[1]));
}

c10::IValue truediv(const Args& args) {
  check_divisor(arg(args, 1));
  return as_float(args[0]) / as_float(args[1]);
}

// and_/or_ of two bools is a bool, of ints Python's bitwise result.
template <class Op>
c10::IValue logical(const Args& args, Op op) {
  if (arg(args, 0).isBool() && arg(args, 1).isBool())
    return static_cast<bool>(op(args[0].toBool(), args[1].toBool()));
  return op(as_int(args[0]), as_int(args[1]));
}

c10::IValue negate(const Args& args) {
  const c10::IValue& v = arg(args, 0);
  return v.isDouble() ? c10::IValue(-v.toDouble()) : c10::IValue(-as_int(v));
}

const std::map<std::string, SymbolicOp>& operators() {
  static const std::map<std::string, SymbolicOp> ops{
      {"_operator.add", [](const Args& a) { return arithmetic(a, std::plus<>(), std::plus<>()); }},
      {"_operator.sub",
       [](const Args& a) { return arithmetic(a, std::minus<>(), std::minus<>()); }},
      {"_operator.mul",
       [](const Args& a) { return arithmetic(a, std::multiplies<>(), std::multiplies<>()); }},
      {"_operator.floordiv", floordiv},
      {"_operator.mod", mod},
      {"_operator.pow", pow},
      {"_operator.truediv", truediv},
      {"_operator.neg", negate},
      {"_operator.pos", [](const Args& a) { return arg(a, 0); }},
      {"_operator.eq", [](const Args& a) { return comparison(a, std::equal_to<>()); }},
      {"_operator.ne", [](const Args& a) { return comparison(a, std::not_equal_to<>()); }},
      {"_operator.lt", [](const Args& a) { return comparison(a, std::less<>()); }},
      {"_operator.le", [](const Args& a) { return comparison(a, std::less_equal<>()); }},
      {"_operator.gt", [](const Args& a) { return comparison(a, std::greater<>()); }},
      {"_operator.ge", [](const Args& a) { return comparison(a, std::greater_equal<>()); }},
      {"_operator.and_", [](const Args& a) { return logical(a, std::bit_and<>()); }},
      {"_operator.or_", [](const Args& a) { return logical(a, std::bit_or<>()); }},
      {"torch.sym_not", [](const Args& a) { return c10::IValue(!as_int(arg(a, 0))); }},
      {"math.trunc", [](const Args& a) { return c10::IValue(as_int(arg(a, 0))); }},
      {"torch.sym_int", [](const Args& a) { return c10::IValue(as_int(arg(a, 0))); }},
      {"torch.sym_float", [](const Args& a) { return c10::IValue(as_float(arg(a, 0))); }},
      {"torch.sym_sqrt", [](const Args& a) { return c10::IValue(std::sqrt(as_float(arg(a, 0)))); }},
      {"torch.sym_max",
       [](const Args& a) { return comparison(a, std::less<>()).toBool() ? a[1] : a[0]; }},
      {"torch.sym_min",
       [](const Args& a) { return comparison(a, std::less<>()).toBool() ? a[0] : a[1]; }},
      {"torch.sym_ite", [](const Args& a) { return as_int(arg(a, 0)) ? a.at(1) : a.at(2); }},
  };
  return ops;
}

}  // namespace

SymbolicOp symbolic_op(const std::string& target) {
  const auto& ops = operators();
  auto found = ops.find(target);
  return found == ops.end() ? nullptr : found->second;
}

}  // namespace modrec::pt2
