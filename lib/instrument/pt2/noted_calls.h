// The calls a torch.export graph cannot show, put in its CallPlan from modrec.export's notes
// (torch-free): a module call that runs no operator (an Identity, a Dropout that export dropped)
// makes no node, but the eager forward the notes record made it. The graph's calls are matched
// to the eager ones in order. A call's tensors are the graph values its signature names, where
// the archive keeps it (preserve_module_call_signature); else a call without nodes must return
// only tensors it was given, which are graph values found where another call took or returned
// the same tensor (same identity and version). It runs right after the eager event before it,
// once the values it takes exist.
#pragma once
#include "instrument/pt2/planned_calls.h"
#include "load/pt2/export_notes.h"
#include "model/module_tree.h"

namespace modrec::pt2 {

// `plan` with every call of `notes`, in the order they start. A call without nodes whose values
// cannot be told is left out with the calls inside it (one warning names them all); notes that
// do not match the graph (another model) are one warning, and `plan` is returned as it is.
CallPlan with_noted_calls(CallPlan plan, const Program& program, const ModuleTree& tree,
                          const ExportNotes& notes);

}  // namespace modrec::pt2
