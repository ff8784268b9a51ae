#include "instrument/pt2/node_args.h"

#include <ATen/core/dispatch/Dispatcher.h>
#include <doctest/doctest.h>

#include <cmath>

using namespace modrec::pt2;
using K = Argument::Kind;

namespace {

const ValueLookup kNoValues = [](const std::string& name) -> c10::IValue {
  throw UnsupportedArgument("no value " + name);
};

const c10::Argument& param(const char* op, const char* overload, const std::string& name) {
  const auto& schema = c10::Dispatcher::singleton().findSchemaOrThrow(op, overload).schema();
  for (const c10::Argument& a : schema.arguments())
    if (a.name() == name) return a;
  throw std::logic_error("no argument " + name);
}

}  // namespace

TEST_CASE("typed arguments become the IValues the operator takes") {
  CHECK(argument_value({K::floats, {}, {}, {1.5, -INFINITY}, {}}, kNoValues).toDoubleVector() ==
        std::vector<double>{1.5, -INFINITY});
  CHECK(argument_value({K::bools, {}, {1, 0}, {}, {}}, kNoValues).toBoolList().vec() ==
        std::vector<bool>{true, false});
  CHECK(argument_value({K::device, {}, {-1}, {}, {"cpu"}}, kNoValues).toDevice() ==
        c10::Device("cpu"));
  // a size the graph computed under a name, beside one written as a number
  const ValueLookup sizes = [](const std::string& name) -> c10::IValue {
    return name == "s0" ? c10::IValue(int64_t{7}) : throw UnsupportedArgument(name);
  };
  CHECK(argument_value({K::sym_ints, {"s0", ""}, {0, 3}, {}, {}}, sizes).toIntVector() ==
        std::vector<int64_t>{7, 3});
  CHECK_THROWS_AS(argument_value({K::unsupported, {}, {}, {}, {"as_custom_obj"}}, kNoValues),
                  UnsupportedArgument);
}

TEST_CASE("a number where the schema takes a float or a Tensor is what Python would pass") {
  const Argument three{K::int_, {}, {3}, {}, {}};
  CHECK(argument_value(three, param("aten::add", "Tensor", "alpha"), kNoValues).isInt());
  const c10::IValue other = argument_value(three, param("aten::add", "Tensor", "other"), kNoValues);
  REQUIRE(other.isTensor());
  CHECK(other.toTensor().unsafeGetTensorImpl()->is_wrapped_number());
}

TEST_CASE("an argument of another type than the schema's is named, before anything runs") {
  const c10::Argument& dim = param("aten::sum", "dim_IntList", "dim");          // int[1]?
  const c10::Argument& keepdim = param("aten::sum", "dim_IntList", "keepdim");  // bool
  CHECK(argument_mismatch({K::ints, {}, {1}, {}, {}}, dim).empty());
  CHECK(argument_mismatch({K::none, {}, {}, {}, {}}, dim).empty());
  CHECK(argument_mismatch({K::string, {}, {}, {}, {"1"}}, dim) ==
        "as_string where the operator takes int[]");
  CHECK(argument_mismatch({K::int_, {}, {1}, {}, {}}, keepdim) ==
        "as_int where the operator takes bool");
  CHECK(argument_mismatch({K::none, {}, {}, {}, {}}, keepdim) ==
        "as_none where the operator takes bool");
  const c10::Argument& self = param("aten::sum", "dim_IntList", "self");
  CHECK(argument_mismatch({K::float_, {}, {}, {0.5}, {}}, self).empty());  // a wrapped number
  CHECK(argument_mismatch({K::tensors, {"a"}, {}, {}, {}}, self) ==
        "as_tensors where the operator takes Tensor");
}
