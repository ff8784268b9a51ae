// Which calls `record --layers` selects, decided as each call starts, and the call facts the
// output names (labels, call numbers).
#pragma once
#include <string>
#include <vector>

#include "check/layer_match.h"
#include "model/call_trace.h"
#include "run/trace_collector.h"

namespace modrec {

// Which call of its module instance each call is, from 1.
std::vector<int> call_numbers(const CallTrace& trace);

// The calls as the matcher sees them, to validate --layers against a finished pass.
std::vector<LayerRef> layer_refs(const ModuleTree& tree, const CallTrace& trace,
                                 const std::vector<std::string>& labels);

// Asked once per call as it starts (the trace has just seen it). A label depends only on the
// calls before it, so it is computed from the trace so far, and only for calls at the depth of
// some label selector: path, type and regex selectors cost nothing per call.
class CallSelection {
 public:
  CallSelection(const LayerMatcher& matcher, const ModuleTree& tree, const TraceCollector& trace)
      : matcher_(matcher), tree_(tree), trace_(trace) {}

  bool operator()(int call) const;

 private:
  const LayerMatcher& matcher_;
  const ModuleTree& tree_;
  const TraceCollector& trace_;
};

}  // namespace modrec
