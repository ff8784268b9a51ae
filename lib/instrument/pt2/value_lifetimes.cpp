#include "instrument/pt2/value_lifetimes.h"

#include <map>

namespace modrec::pt2 {
namespace {

// The graph values a call's argument (PlannedCall::in_spec's) reads.
void argument_values(const CallArgument& arg, std::vector<std::string>& out) {
  if (const auto* value = std::get_if<GraphValue>(&arg.held)) out.push_back(value->name);
  if (const auto* tuple = std::get_if<ArgumentTuple>(&arg.held))
    for (const CallArgument& item : tuple->items) argument_values(item, out);
  if (const auto* dict = std::get_if<ArgumentDict>(&arg.held))
    for (const CallArgument& item : dict->values) argument_values(item, out);
}

// What the call events before a node read: a start its arguments, an end its outputs.
std::vector<std::string> event_reads(const std::vector<CallEvent>& events, const CallPlan& plan) {
  std::vector<std::string> names;
  for (const CallEvent& event : events) {
    const PlannedCall& call = plan.calls[event.call];
    if (!event.enter)
      names.insert(names.end(), call.outputs.begin(), call.outputs.end());
    else if (!call.in_spec)
      names.insert(names.end(), call.inputs.begin(), call.inputs.end());
    else
      for (const CallArgument& arg : *call.in_spec) argument_values(arg, names);
  }
  return names;
}

}  // namespace

std::vector<std::vector<std::string>> last_uses(const std::vector<Node>& nodes,
                                                const CallPlan& plan,
                                                const std::set<std::string>& kept) {
  const size_t n = nodes.size();
  std::map<std::string, size_t> last;  // n: never let go
  for (size_t i = 0; i < n; ++i) {
    for (const std::string& name : event_reads(plan.events_before[i], plan)) last[name] = i;
    for (const NodeArg& arg : nodes[i].inputs)
      for (const std::string& name : value_names(arg.value)) {
        const auto source = plan.sources[i].find(name);
        last[source == plan.sources[i].end() ? name : source->second] = i;
      }
    for (const Argument& out : nodes[i].outputs)
      for (const std::string& name : value_names(out)) last.emplace(name, i);
  }
  for (const std::string& name : event_reads(plan.events_before[n], plan)) last[name] = n;
  for (const std::string& name : kept) last[name] = n;
  std::vector<std::vector<std::string>> frees(n);
  for (const auto& [name, at] : last)
    if (at < n) frees[at].push_back(name);
  return frees;
}

std::set<std::string> names_of(const std::vector<Argument>& arguments) {
  std::set<std::string> names;
  for (const Argument& a : arguments)
    for (const std::string& name : value_names(a)) names.insert(name);
  return names;
}

}  // namespace modrec::pt2
