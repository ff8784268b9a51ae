#include "instrument/pt2/node_args.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace modrec::pt2;
using nlohmann::json;

namespace {

c10::IValue value_of(const std::string& argument) {
  const ValueLookup none = [](const std::string& name) -> c10::IValue {
    throw UnsupportedArgument("no value " + name);
  };
  return argument_value(json::parse(argument), none);
}

}  // namespace

TEST_CASE("floats JSON has no number for come as torch.export writes them") {
  CHECK(value_of(R"({"as_float": "-Infinity"})").toDouble() == -INFINITY);
  CHECK(value_of(R"({"as_float": "Infinity"})").toDouble() == INFINITY);
  CHECK(std::isnan(value_of(R"({"as_float": "NaN"})").toDouble()));
  CHECK(value_of(R"({"as_float": 0.5})").toDouble() == 0.5);
  const auto list = value_of(R"({"as_floats": [1.5, "-Infinity"]})").toDoubleVector();
  CHECK(list == std::vector<double>{1.5, -INFINITY});
  CHECK_THROWS_AS(value_of(R"({"as_float": "many"})"), UnsupportedArgument);
}
