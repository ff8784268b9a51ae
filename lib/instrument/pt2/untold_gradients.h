// The gradients a torch.export graph cannot tell for a call that runs no operator (torch-free).
// Such a call (an Identity, put in the plan from modrec.export's notes: noted_calls.h) returns its
// argument itself, so the graph has one value for both, and every use of that value reads the
// call's result. Eager PyTorch's full backward hooks see as the call's gradient only what flows
// back through its result; the graph would give that of every use of the value. The two agree when
// the value has one use (it is the result's); with more (`y = ident(h); return y + h`, or add(v,
// v)) which uses are the result's is not told, so the call's gradients are refused, not written
// wrong.
#pragma once
#include "instrument/pt2/planned_calls.h"
#include "model/module_tree.h"

namespace modrec::pt2 {

// Sets PlannedCall::untold_inputs and untold_outputs, saying why, on every call of `plan` but the
// root that returns one of its inputs (only a call without nodes can) when that value has more than
// one use in `program`: each time a node's arguments name it (add(v, v): twice; under the name the
// node reads it by, CallPlan::sources) and each time the user outputs do. Leaves every other call's
// as it is. A call that returns one value at several places of its result (`return h, (h,)`),
// a value used at all, gets untold_outputs: which place each use took is not told (modrec.export
// makes each place a value of its own; an archive of an earlier one may not).
void mark_untold_gradients(CallPlan& plan, const Program& program, const ModuleTree& tree);

}  // namespace modrec::pt2
