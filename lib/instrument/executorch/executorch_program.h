// An ExecuTorch program (.pte: to_edge, to_executorch) run by the executorch wheel's own C++
// runtime, through modrec's shim (load/executorch/executorch_abi.h) loaded with dlopen when a .pte
// is given (load/executorch/executorch_runtime.h). The runtime reports no module call: the
// program's one call is its root, whose inputs and outputs are forward's; given the program's
// ETRecord, the module calls its instructions ran are reported too, each with the output its last
// instruction logged (etrecord_calls.h).
#pragma once
#include <memory>
#include <string>

#include "instrument/instrumented_model.h"

namespace modrec {

// Loads the program at `path` (FileKind::executorch), and its ETRecord at `etrecord` unless empty:
// the program's header checked (load/executorch/pte_header.h), the ETRecord read, the program
// verified whole by ExecuTorch as its runtime loads it, then the ETRecord held to it
// (load/executorch/etrecord_check.h), before anything runs. Error(Exit::bad_input), one line
// naming the file, when executorch is not installed beside torch, modrec was built without its
// shim, the program is damaged or ExecuTorch cannot load it, or the ETRecord cannot be read or
// describes another program. With an ETRecord, the tree is the eager model's (its root's class,
// modules and parameters).
std::unique_ptr<InstrumentedModel> open_executorch_program(const std::string& path,
                                                           const std::string& etrecord = "");

}  // namespace modrec
