#include "pass/trace_collector.h"

#include "pass/value_meta.h"

namespace modrec {

void TraceCollector::enter(int index, int module, const std::vector<c10::IValue>& args) {
  trace_.ran = true;
  trace_.calls.resize(index + 1);
  trace_.calls[index] = Call{module, open_call(), args_meta(args), {}, false, args.empty()};
  open_.push_back(index);
}

void TraceCollector::positional_arguments(int index, const std::vector<c10::IValue>& positional) {
  trace_.calls[index].inputs = args_meta(positional);
}

void TraceCollector::untold_signature(int index, bool keywords, bool structure) {
  trace_.calls[index].keywords_untold = keywords;
  trace_.calls[index].structure_untold = structure;
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
