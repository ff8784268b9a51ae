#include "summary/flops.h"

namespace modrec {

void add_flops(const CallTrace& trace, Summary& summary) {
  std::vector<int64_t> forward(trace.calls.size()), backward(trace.calls.size());
  // Calls start after their parent: from the last, each adds its subtree to its parent's.
  for (size_t i = trace.calls.size(); i-- > 0;) {
    const Call& call = trace.calls[i];
    forward[i] += call.flops_forward;
    backward[i] += call.flops_backward;
    if (call.parent_call < 0) continue;
    forward[call.parent_call] += forward[i];
    backward[call.parent_call] += backward[i];
  }
  for (LayerRow& row : summary.rows) {
    if (row.call < 0) continue;
    row.flops_forward = forward[row.call];
    row.flops_backward = backward[row.call];
  }
  if (!forward.empty()) {
    summary.totals.flops_forward = forward[0];
    summary.totals.flops_backward = backward[0];
  }
  summary.has_flops = true;
  summary.unattributed_ops = trace.unattributed_ops;
}

}  // namespace modrec
