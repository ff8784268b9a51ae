#include "pass/trace_collector.h"

#include "pass/value_meta.h"

namespace modrec {

void TraceCollector::enter(int index, int module, const std::vector<c10::IValue>& args) {
  trace_.ran = true;
  trace_.calls.resize(index + 1);
  trace_.calls[index] = Call{module, open_call(), args_meta(args), {}, false, args.empty()};
  open_.push_back(index);
}

void TraceCollector::caveats(int index, const CallCaveats& told) {
  Call& call = trace_.calls[index];
  if (told.positional) call.inputs = args_meta(*told.positional);
  call.keywords_untold = told.keywords_untold;
  call.structure_untold = told.structure_untold;
}

c10::IValue TraceCollector::leave(int index, int, const c10::IValue& output) {
  open_.pop_back();
  Call& call = trace_.calls[index];
  call.outputs = result_meta(output);
  if (index == 0 && call.inputs.tensors.empty() && !given_by_position_.empty())
    call.inputs = args_meta(given_by_position_);
  call.finished = true;
  call.traced_away = call.traced_away && output.isNone();
  return output;
}

}  // namespace modrec
