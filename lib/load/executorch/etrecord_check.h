// An ETRecord held to the program it is given with, before either runs: its instructions are
// forward's, its debug handles its edge program's nodes', and its edge program takes and returns
// what forward does. An ETRecord written for another program (or a program lowered again since)
// would pair the runtime's outputs with the wrong module calls.
#pragma once
#include "load/executorch/etrecord.h"
#include "load/executorch/pte_method.h"

namespace modrec {

// Error(bad_input) naming the ETRecord and the first defect: an instruction of debug_handle_map
// that forward lacks, a debug handle no node of the edge program has, a number of inputs or
// outputs, or an input's or output's dtype or a size, that differs from forward's.
void check_etrecord(const EtRecord& record, const PteMethod& method);

}  // namespace modrec
