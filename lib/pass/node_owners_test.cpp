#include "pass/node_owners.h"

#include <doctest/doctest.h>

namespace modrec {

TEST_CASE("a node belongs to the call open when it was made") {
  NodeOwners owners;
  owners.moved_to(10, 0);
  owners.moved_to(12, 1);
  owners.moved_to(15, 0);
  owners.moved_to(17, -1);
  CHECK(owners.owner(11) == 0);
  CHECK(owners.owner(12) == 1);
  CHECK(owners.owner(14) == 1);
  CHECK(owners.owner(15) == 0);
  CHECK(owners.owner(20) == 0);  // after the root returned: the root's
  CHECK(owners.owner(5) == 0);   // before the forward
  CHECK(owners.owner(-1) == 0);  // AccumulateGrad
}

}  // namespace modrec
