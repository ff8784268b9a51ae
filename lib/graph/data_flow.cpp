#include "graph/data_flow.h"

namespace modrec {

DataFlow static_flow(const CallTrace& trace) {
  std::vector<bool> has_children(trace.calls.size(), false);
  for (const auto& call : trace.calls)
    if (call.parent_call >= 0) has_children[call.parent_call] = true;
  DataFlow flow{{}, true};
  FlowEnd last{FlowEnd::Kind::input, 0};
  for (int c = 0; c < static_cast<int>(trace.calls.size()); ++c) {
    if (has_children[c]) continue;
    flow.edges.push_back({last, {FlowEnd::Kind::call, c}});
    last = {FlowEnd::Kind::call, c};
  }
  flow.edges.push_back({last, {FlowEnd::Kind::output, 0}});
  return flow;
}

}  // namespace modrec
