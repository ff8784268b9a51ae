// The FLOPs of each row and the totals from the calls' own counts (torch-free).
#pragma once
#include "model/call_trace.h"
#include "summary/summary.h"

namespace modrec {

// Each call's row gets its own FLOPs plus its nested calls'; the totals are the root call's.
void add_flops(const CallTrace& trace, Summary& summary);

}  // namespace modrec
