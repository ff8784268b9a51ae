// A call's arguments as the archive's signature of it tells them (CallSignature, kept by
// preserve_module_call_signature), read by call_plan.h and noted_calls.h alike (torch-free).
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "instrument/pt2/planned_calls.h"
#include "load/pt2/program.h"

namespace modrec::pt2 {

// The tensors of a call's signature (CallSignature's inputs or outputs), constants left out;
// nullopt when it holds another value (a list of tensors, a symbolic size) or names a tensor the
// program lacks.
std::optional<std::vector<std::string>> signature_tensors(const std::vector<Argument>& told,
                                                          const Program& program);

// How many of a call's arguments, given as `in_spec` (PlannedCall's: the notes') or else as
// `told`'s tensors (signature_tensors), were passed by position; nullopt when `told` does not say.
std::optional<size_t> positional_arguments(const CallSignature& told,
                                           const std::optional<std::vector<CallArgument>>& in_spec);

}  // namespace modrec::pt2
