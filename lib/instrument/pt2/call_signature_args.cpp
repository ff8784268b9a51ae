#include "instrument/pt2/call_signature_args.h"

#include <algorithm>

namespace modrec::pt2 {

std::optional<std::vector<std::string>> signature_tensors(const std::vector<Argument>& told,
                                                          const Program& program) {
  std::vector<std::string> names;
  for (const Argument& a : told)
    if (a.kind == Argument::Kind::tensor && program.tensor_values.count(a.names[0]))
      names.push_back(a.names[0]);
    else if (!value_names(a).empty())
      return std::nullopt;
  return names;
}

std::optional<size_t> positional_arguments(
    const CallSignature& told, const std::optional<std::vector<CallArgument>>& in_spec) {
  const auto positional = told.positional();
  if (!positional) return std::nullopt;
  // The notes bind a call's arguments to forward's parameters, in order: those given by position
  // are the first (a *args parameter holds all the rest in one).
  if (in_spec) return std::min(positional->args, in_spec->size());
  const auto first = told.inputs.begin();
  return std::count_if(first, first + static_cast<ptrdiff_t>(positional->inputs),
                       [](const Argument& a) { return a.kind == Argument::Kind::tensor; });
}

}  // namespace modrec::pt2
