// The schema's Argument unions ({"as_ints": [1, 1]}, {"as_tensor": {"name": "x"}}, ...) as the
// IValues an operator takes, graph values looked up by name.
#pragma once
#include <ATen/core/function_schema.h>
#include <ATen/core/ivalue.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace modrec::pt2 {

using ValueLookup = std::function<c10::IValue(const std::string& name)>;

// An Argument union this reader cannot turn into a value (a subgraph, a custom object, ...).
struct UnsupportedArgument : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `argument` for the schema argument `param` (an int where a float is taken becomes a float).
c10::IValue argument_value(const nlohmann::json& argument, const c10::Argument& param,
                           const ValueLookup& lookup);
// `argument` by its own kind alone (a frozen constant input, a higher-order operator's argument:
// a subgraph as its index in Node::graphs, an operator as its target).
c10::IValue argument_value(const nlohmann::json& argument, const ValueLookup& lookup);

}  // namespace modrec::pt2
