// The program's wiring checked once, at load (torch-free): every value a node, a graph's output
// or the program's outputs read is defined before it is read, by the graph's inputs or an earlier
// node's outputs; a subgraph sees its own inputs alone, as the runner binds them. Whatever runs
// the program then looks values up without a miss.
#pragma once
#include <stdexcept>

#include "load/pt2/program.h"

namespace modrec::pt2 {

// What check_program found: "node add_1 (torch.ops.aten.add.Tensor): its input other reads the
// value y, which nothing before it defines".
struct ProgramCheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check_program(const Program& program);

}  // namespace modrec::pt2
