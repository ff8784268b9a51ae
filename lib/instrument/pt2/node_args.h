// A program's typed arguments (load/pt2/program.h) as the IValues an operator takes, graph values
// looked up by name.
#pragma once
#include <ATen/core/function_schema.h>
#include <ATen/core/ivalue.h>

#include <functional>
#include <stdexcept>
#include <string>

#include "load/pt2/program.h"

namespace modrec::pt2 {

using ValueLookup = std::function<c10::IValue(const std::string& name)>;

// An argument this runner cannot turn into a value (a custom object, ...).
struct UnsupportedArgument : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// `argument` for the schema argument `param` (an int where a float is taken becomes a float).
c10::IValue argument_value(const Argument& argument, const c10::Argument& param,
                           const ValueLookup& lookup);
// `argument` by its own kind alone (a frozen constant input, a higher-order operator's argument:
// a subgraph as its index in Node::graphs, an operator as its target).
c10::IValue argument_value(const Argument& argument, const ValueLookup& lookup);

// Why `argument` cannot be given as the schema argument `param` ("as_string where the operator
// takes int"); "" when it can. What the runner would convert, it accepts: a number where a
// Tensor goes (a wrapped number), an int where a float goes, a None where the type is optional.
std::string argument_mismatch(const Argument& argument, const c10::Argument& param);

}  // namespace modrec::pt2
