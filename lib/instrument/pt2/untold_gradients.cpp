#include "instrument/pt2/untold_gradients.h"

#include <algorithm>
#include <map>

namespace modrec::pt2 {
namespace {

// How many times each value is read: by the nodes' arguments, as each node reads it, and by the
// user outputs (forward's result; a buffer written back carries no gradient).
std::map<std::string, int> uses(const Program& program, const CallPlan& plan) {
  std::map<std::string, int> out;
  for (size_t i = 0; i < program.nodes.size(); ++i)
    for (const NodeArg& arg : program.nodes[i].inputs)
      for (const std::string& name : value_names(arg.value)) {
        const bool renamed = i < plan.sources.size() && plan.sources[i].count(name);
        ++out[renamed ? plan.sources[i].at(name) : name];
      }
  for (const OutputSpec& output : program.outputs)
    if (output.user)
      for (const std::string& name : value_names(output.value)) ++out[name];
  return out;
}

std::string why(const std::string& path, const std::string& value, int uses) {
  return path + "'s argument and result are one value of the .pt2 graph (" + value + "), used " +
         std::to_string(uses) +
         " times: its gradient would sum every use, where eager hooks see only the result's";
}

// A value the call returns at several places of its result (diffusers' DownBlock2D: `return h,
// (h,)`): eager PyTorch's hooks see each place's own gradient, from the uses of that place; the
// graph has one value for all of them and does not tell which place a use took. (modrec.export
// makes each place a value of its own: only an archive of an earlier one, or notes put in by
// hand, has this.)
std::string repeated_result(const std::string& path, const std::string& value) {
  return path + " returns one tensor at several places, one value of the .pt2 graph (" + value +
         "): which place each use takes is not told, where eager hooks see each place's "
         "gradient apart; modrec.export of this modrec tells them apart";
}

}  // namespace

void mark_untold_gradients(CallPlan& plan, const Program& program, const ModuleTree& tree) {
  const std::map<std::string, int> used = uses(program, plan);
  for (size_t c = 1; c < plan.calls.size(); ++c) {
    PlannedCall& call = plan.calls[c];
    for (const std::string& value : call.outputs) {
      const auto n = used.find(value);
      const bool returned_input =
          std::find(call.inputs.begin(), call.inputs.end(), value) != call.inputs.end();
      if (returned_input && n != used.end() && n->second > 1) {
        call.untold_inputs = call.untold_outputs =
            why(tree.modules[call.module].path, value, n->second);
        break;
      }
      if (call.untold_outputs.empty() && n != used.end() &&
          std::count(call.outputs.begin(), call.outputs.end(), value) > 1)
        call.untold_outputs = repeated_result(tree.modules[call.module].path, value);
    }
  }
}

}  // namespace modrec::pt2
