// Which module call's forward created an autograd node, from the node's sequence number: the
// thread's autograd counter numbers the nodes in the order they are made, so marking where it
// stood each time the innermost open call changes tells every node's call (torch-free).
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace modrec {

class NodeOwners {
 public:
  // From counter value `sequence_nr` on, the nodes made belong to `call` (-1: to no call).
  void moved_to(uint64_t sequence_nr, int call) { marks_.emplace_back(sequence_nr, call); }
  // The call whose forward made the node numbered `sequence_nr`; the root's (0) for a node no
  // call made (AccumulateGrad's -1, nodes made before or after the forward).
  int owner(int64_t sequence_nr) const;

 private:
  std::vector<std::pair<uint64_t, int>> marks_;  // in counter order
};

}  // namespace modrec
