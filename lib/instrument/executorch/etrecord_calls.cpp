#include "instrument/executorch/etrecord_calls.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

#include "load/pt2/stack_calls.h"

namespace modrec {
namespace {

int64_t elements(const Shape& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
}

// Per node, the logged output that is its value (-1: none): each output goes to the first node
// not yet given one among those of its instruction's debug handles, of its shape.
std::vector<int> node_values(const EtRecord& record, const std::vector<LoggedOutput>& logged) {
  std::map<int64_t, std::vector<size_t>> nodes_of;  // debug handle -> its nodes, in order
  for (size_t n = 0; n < record.nodes.size(); ++n)
    nodes_of[record.nodes[n].debug_handle].push_back(n);
  std::vector<int> value(record.nodes.size(), -1);
  for (size_t l = 0; l < logged.size(); ++l) {
    const auto handles = record.handles.find(logged[l].instruction);
    if (handles == record.handles.end()) continue;
    std::vector<size_t> candidates;
    for (int64_t h : handles->second)
      if (auto nodes = nodes_of.find(h); nodes != nodes_of.end())
        candidates.insert(candidates.end(), nodes->second.begin(), nodes->second.end());
    std::sort(candidates.begin(), candidates.end());
    for (size_t n : candidates)
      if (value[n] < 0 && record.nodes[n].shape == logged[l].shape) {
        value[n] = static_cast<int>(l);
        break;
      }
  }
  return value;
}

}  // namespace

std::vector<EtCall> etrecord_calls(const EtRecord& record, const ModuleTree& tree,
                                   const std::vector<LoggedOutput>& logged) {
  const std::vector<int> value = node_values(record, logged);
  std::vector<std::vector<pt2::StackEntry>> stacks;
  for (const EtRecordNode& node : record.nodes) stacks.push_back(node.stack);
  const pt2::StackCalls walked = pt2::stack_calls(stacks, tree);
  std::vector<size_t> first(walked.calls.size(), record.nodes.size()), last(walked.calls.size());
  for (size_t n = 0; n < record.nodes.size(); ++n)
    for (const int call : walked.chains[n]) {
      first[call] = std::min(first[call], n);
      last[call] = n;
    }
  std::vector<EtCall> calls;  // the walk's but its call 0, the root's
  for (size_t c = 1; c < walked.calls.size(); ++c) {
    EtCall call{walked.calls[c].module, walked.calls[c].parent - 1};
    call.node = last[c];
    const EtRecordNode& end = record.nodes[last[c]];
    // the last node that has a value, back to the call's first (its own calls' too)
    for (size_t n = last[c] + 1; n-- > first[c];) {
      if (value[n] < 0) continue;
      if (elements(logged[value[n]].shape) == elements(end.shape)) {
        call.output = value[n];
        call.shape = end.shape;
      }
      break;
    }
    calls.push_back(std::move(call));
  }
  return calls;
}

}  // namespace modrec
