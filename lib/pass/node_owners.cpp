#include "pass/node_owners.h"

#include <algorithm>
#include <climits>

namespace modrec {

int NodeOwners::owner(int64_t sequence_nr) const {
  if (sequence_nr < 0) return 0;
  auto it = std::upper_bound(marks_.begin(), marks_.end(),
                             std::make_pair(static_cast<uint64_t>(sequence_nr), INT_MAX));
  if (it == marks_.begin()) return 0;
  return std::max(std::prev(it)->second, 0);
}

}  // namespace modrec
