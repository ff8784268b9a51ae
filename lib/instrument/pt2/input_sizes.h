// The sizes of a .pt2 program's tensor inputs, checked before it runs as ExportedProgram.module()
// checks them: LibTorch would otherwise fail inside some node with a shape error (exit 4) that
// names neither the input nor the size the export was made for.
#pragma once
#include <ATen/core/ivalue.h>

#include <map>
#include <string>
#include <vector>

#include "load/pt2/program.h"

namespace modrec::pt2 {

// What is wrong with an input of `sizes` where the export saw `exported`: "" when nothing,
// else "dimension 0 is 3, where the program was exported for 2". A static dimension must have
// the exported size; a dynamic one (a symbol) must lie in its `ranges` entry; a size computed
// from several symbols is not checked.
std::string size_mismatch(const TensorMeta& exported,
                          const std::map<std::string, SymbolRange>& ranges,
                          const std::vector<int64_t>& sizes);

// Error(Exit::usage) naming the input (its graph value's name), the dimension, the size given and
// the size or range exported, for the first user input that mismatches.
void check_input_sizes(const Program& program, const std::vector<c10::IValue>& inputs,
                       const std::string& path);

}  // namespace modrec::pt2
