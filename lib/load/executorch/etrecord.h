// An ETRecord (executorch.devtools' generate_etrecord: a zip written beside the .pte it
// describes) read for what it tells of the program's instructions: which module calls each ran.
// Its edge program (ExecuTorch's copy of the export serializer, at its own schema version) is read
// and checked by the .pt2 reader (load/pt2/program_json.h): its operator nodes carry the eager
// program's nn_module_stack and a debug handle; its debug_handle_map gives each instruction of
// forward the debug handles of the nodes it runs (a Linear's permute and addmm share one). Its
// module tree is the one a .pt2 of the edge program has (load/pt2/exported_tree.h), its
// parameters sized by the edge program (their values are the .pte's).
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "load/pt2/program.h"
#include "model/module_tree.h"

namespace modrec {

struct EtRecordNode {
  int64_t debug_handle = -1;           // -1: none
  std::vector<pt2::StackEntry> stack;  // outermost first, the root's entry left out
  Shape shape;                         // its (first) output's
  int dtype = 0;  // the same output's: the export schema's ScalarType number; 0 for no tensor
};

struct EtRecord {
  std::string path;
  // The modules of the program's eager model (the root's class the one it was exported from),
  // with their parameters and kernels, as a .pt2's.
  ModuleTree tree;
  std::vector<EtRecordNode> nodes;  // forward's edge program's operator nodes, in order
  std::map<int64_t, std::vector<int64_t>> handles;  // per instruction, its nodes' debug handles
  // forward's user inputs and outputs as its edge program declares them; nullopt for a value that
  // is no tensor.
  std::vector<std::optional<pt2::TensorMeta>> inputs;
  std::vector<std::optional<pt2::TensorMeta>> outputs;
};

// Error(Exit::bad_input) naming `path` when it is no ETRecord, or holds no edge program of
// forward or no debug handle map, or either is malformed (parse_program's checks of the edge
// program; a handle that is no number).
EtRecord read_etrecord(const std::string& path);

// read_etrecord's reading of the two entries' text, for `path`'s messages.
EtRecord parse_etrecord(const std::string& edge_program, const std::string& debug_handle_map,
                        const std::string& path);

// What to do about an ETRecord refused: the hint of every such Error.
extern const char* const kEtRecordHint;

}  // namespace modrec
