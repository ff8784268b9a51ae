#include "run/trace_collector.h"

#include "run/value_meta.h"

namespace modrec {

void TraceCollector::enter(int module, const std::vector<c10::IValue>& args) {
  trace_.ran = true;
  trace_.calls.push_back(Call{module, open_call(), args_meta(args), {}, false, args.empty()});
  open_.push_back(static_cast<int>(trace_.calls.size()) - 1);
}

c10::IValue TraceCollector::leave(int module, const c10::IValue& output) {
  if (open_.empty()) return output;
  Call& call = trace_.calls[open_.back()];
  open_.pop_back();
  if (call.module != module) return output;  // unbalanced: never expected; never crash over it
  call.outputs = result_meta(output);
  call.finished = true;
  call.traced_away = call.traced_away && output.isNone();
  return output;
}

}  // namespace modrec
