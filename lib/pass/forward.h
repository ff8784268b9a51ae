// One pass over an instrumented model: forward, or forward and backward, with the CLI's modes.
#pragma once
#include "instrument/instrumented_model.h"
#include "pass/trace_collector.h"

namespace modrec {

struct RunOptions {
  bool grad = false;  // autograd on during forward (summary --grad, record)
};

// Runs forward with `hooks` seeing every call, after `trace` (which hooks may read). A model that
// raises becomes Error(Exit::model_failed) naming the call that was running, by label and module
// path (labels per torchinfo's algorithm over the calls so far).
c10::IValue run_forward(InstrumentedModel& model, std::vector<c10::IValue> inputs,
                        const RunOptions& options, CallHooks& hooks, TraceCollector& trace);

// The calls of one forward pass, for the summary; `hooks` (say, --edit's) see every call after
// the trace did. `given_by_position`: TraceCollector's.
CallTrace trace_forward(InstrumentedModel& model, std::vector<c10::IValue> inputs,
                        const RunOptions& options, CallHooks* hooks = nullptr,
                        std::vector<c10::IValue> given_by_position = {});

}  // namespace modrec
