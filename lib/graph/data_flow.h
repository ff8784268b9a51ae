// Which tensors flowed between the calls of one pass, as plain data (torch-free): made by
// FlowCollector while the model runs (or static_flow without an input), read by build_graph.
#pragma once
#include <compare>
#include <vector>

#include "model/call_trace.h"

namespace modrec {

// One end of a tensor's way: a graph input, a module call, or a graph output.
struct FlowEnd {
  enum class Kind { input, call, output };
  Kind kind = Kind::call;
  int index = 0;  // the call's index in the CallTrace; the input's or output's place among the
                  // defined tensors of the root call's arguments or result (ValueMeta::tensors)
  auto operator<=>(const FlowEnd&) const = default;
};

struct FlowEdge {
  FlowEnd from, to;
  auto operator<=>(const FlowEdge&) const = default;
};

// Edges between the graph inputs, the calls that made no call themselves (the atomic calls:
// whatever runs between them is folded into the edges) and the graph outputs, each edge once,
// in the order they were found.
struct DataFlow {
  std::vector<FlowEdge> edges;
  bool static_order = false;  // the edges chain calls in static order: no data flow was seen
};

// Without an input: one input, the atomic calls chained in static call order, one output.
DataFlow static_flow(const CallTrace& trace);

}  // namespace modrec
