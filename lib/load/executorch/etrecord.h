// An ETRecord (executorch.devtools' generate_etrecord: a zip written beside the .pte it
// describes) read for what it tells of the program's instructions: which module calls each ran.
// Its edge program's operator nodes carry the eager program's nn_module_stack and a debug handle;
// its debug_handle_map gives each instruction of forward the debug handles of the nodes it runs
// (a Linear's permute and addmm share one). Torch-free.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "load/pt2/program.h"
#include "model/module_tree.h"

namespace modrec {

struct EtRecordNode {
  int64_t debug_handle = -1;           // -1: none (an input, a getitem)
  std::vector<pt2::StackEntry> stack;  // outermost first, the root's entry left out
  Shape shape;                         // its (first) output's
};

struct EtRecord {
  std::vector<EtRecordNode> nodes;  // forward's edge program's operator nodes, in order
  std::map<int64_t, std::vector<int64_t>> handles;  // per instruction, its nodes' debug handles
};

// Error(Exit::bad_input) naming `path` when it is no ETRecord, or holds no edge program of
// forward or no debug handle map.
EtRecord read_etrecord(const std::string& path);

}  // namespace modrec
