// A program's flat outputs put back into forward's result structure (torch.utils._pytree's
// spec, typed at load: load/pt2/program.h's TreeSpec); values/ivalue_walk.h flattens one.
#pragma once
#include <ATen/core/ivalue.h>

#include <vector>

#include "load/pt2/program.h"

namespace modrec::pt2 {

// `leaves` arranged as `spec` says; without a spec, or one with other containers (a namedtuple,
// a dataclass) or another number of leaves: the one leaf, or a tuple of them.
c10::IValue unflatten(const TreeSpec* spec, const std::vector<c10::IValue>& leaves);

}  // namespace modrec::pt2
