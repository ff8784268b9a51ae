// An AOTInductor package (torch._inductor.aoti_compile_and_package: compiled code, no program) run
// by LibTorch's own loader (torch::inductor::AOTIModelPackageLoader, the only use of it). The
// compiled code reports no module call: the model's one call is its root, whose inputs and
// outputs are the package's; its module tree is that of its constants' names (fc1.weight makes a
// module fc1), so that a table counts them by module.
#pragma once
#include <memory>
#include <string>

#include "instrument/instrumented_model.h"
#include "files/file_kind.h"

namespace modrec {

// Loads the package `file` (FileKind::aoti_package), its constants with it (they live in the
// compiled library). Error(Exit::bad_input), one line naming the file, when LibTorch cannot load
// it (compiled for a device that is not here, a missing or damaged library, another torch's ABI).
std::unique_ptr<InstrumentedModel> open_compiled_package(const std::string& path,
                                                         const FileInfo& file);

}  // namespace modrec
