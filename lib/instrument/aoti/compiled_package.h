// An AOTInductor package (torch._inductor.aoti_compile_and_package: compiled code, no program),
// read and checked by load/aoti/, run by LibTorch's own loader (loaded_package.h) only when it
// must run: its table (summary, graph without an input) comes from what the package declares,
// and no code of it runs. The compiled code reports no module call: the model's one call is its
// root, whose inputs and outputs are the package's; its module tree is that of its constants'
// names (fc1.weight makes a module fc1), so that a table counts them by module.
#pragma once
#include <memory>
#include <string>

#include "files/file_kind.h"
#include "instrument/instrumented_model.h"

namespace modrec {

// Reads the package `file` (FileKind::aoti_package): load/aoti's refusals, Error(Exit::bad_input)
// naming the file. Its library is loaded at the first run or the first look at its constants'
// values; an input whose dtype or sizes the compiled program does not take is Error(Exit::usage)
// naming the input, the dimension, the size given and the size compiled, before it runs.
std::unique_ptr<InstrumentedModel> open_compiled_package(const std::string& path,
                                                         const FileInfo& file);

}  // namespace modrec
