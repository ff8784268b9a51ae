// A program's flat outputs put back into forward's result structure (torch.utils._pytree's
// spec: tuples, lists, dicts with string keys), and a structure flattened again.
#pragma once
#include <ATen/core/ivalue.h>

#include <nlohmann/json.hpp>
#include <vector>

namespace modrec::pt2 {

// `leaves` arranged as `spec` says; a tuple of them when the spec is null, has other
// containers (a namedtuple, a dataclass) or another number of leaves.
c10::IValue unflatten(const nlohmann::json& spec, const std::vector<c10::IValue>& leaves);

// The values inside tuples, lists and dicts, depth-first (dicts in insertion order).
void flatten(const c10::IValue& value, std::vector<c10::IValue>& out);

}  // namespace modrec::pt2
