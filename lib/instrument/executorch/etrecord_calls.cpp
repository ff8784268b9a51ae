#include "instrument/executorch/etrecord_calls.h"

#include <algorithm>
#include <functional>
#include <map>
#include <numeric>

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
  std::vector<EtCall> calls;
  std::vector<std::pair<std::string, int>> open;  // stack entry key, call
  std::vector<size_t> first, last;                // per call, its first and last node
  for (size_t n = 0; n < record.nodes.size(); ++n) {
    const auto& stack = record.nodes[n].stack;
    size_t kept = 0;
    while (kept < open.size() && kept < stack.size() && open[kept].first == stack[kept].key) ++kept;
    open.resize(kept);
    for (size_t e = kept; e < stack.size(); ++e) {
      const int parent = open.empty() ? -1 : open.back().second;
      open.emplace_back(stack[e].key, static_cast<int>(calls.size()));
      calls.push_back(EtCall{tree.find(stack[e].path), parent});
      first.push_back(n);
      last.push_back(n);
    }
    for (const auto& [key, call] : open) last[call] = n;
  }
  for (size_t c = 0; c < calls.size(); ++c) {
    calls[c].node = last[c];
    const EtRecordNode& end = record.nodes[last[c]];
    // the last node that has a value, back to the call's first (its own calls' too)
    for (size_t n = last[c] + 1; n-- > first[c];) {
      if (value[n] < 0) continue;
      if (elements(logged[value[n]].shape) == elements(end.shape)) {
        calls[c].output = value[n];
        calls[c].shape = end.shape;
      }
      break;
    }
  }
  return calls;
}

}  // namespace modrec
