// An ExecuTorch program (.pte: to_edge, to_executorch) run by the executorch wheel's own C++
// runtime, through modrec's shim (executorch_abi.h) loaded with dlopen when a .pte is given
// (load/operator_libraries.h). The runtime reports no module call: the program's one call is its
// root, whose inputs and outputs are forward's.
#pragma once
#include <memory>
#include <string>

#include "instrument/instrumented_model.h"

namespace modrec {

// Loads the program at `path` (FileKind::executorch). Error(Exit::bad_input), one line naming the
// file, when executorch is not installed beside torch, modrec was built without its shim, or
// ExecuTorch cannot load the program.
std::unique_ptr<InstrumentedModel> open_executorch_program(const std::string& path);

}  // namespace modrec
