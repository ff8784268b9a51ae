// The module hierarchy an export archive records, as the ModuleTree the TorchScript path builds:
// modules from module_call_graph (named_modules() order, so also those that ran no op), their
// classes from the nodes' nn_module_stack (and modrec.export's notes), their parameters from the
// graph signature, their kernels from the weights' shapes and the pooling nodes' arguments.
#pragma once
#include "load/pt2/exported_archive.h"
#include "model/module_tree.h"

namespace modrec::pt2 {

// The class shown for a module that produced no node (an Identity) in an archive without
// modrec.export's notes: the program does not record it.
inline constexpr const char* kUnknownType = "Module";

ModuleTree exported_tree(const ExportedArchive& archive);

}  // namespace modrec::pt2
