// A torch.export graph run node by node through the dispatcher (dispatcher_ops.h), with autograd
// as the caller's grad mode says and the parameters as leaves, reporting each module call of
// the CallPlan to CallHooks as eager forward hooks would see it.
#pragma once
#include <optional>

#include "instrument/call_hooks.h"
#include "instrument/pt2/call_plan.h"
#include "instrument/pt2/dispatcher_ops.h"
#include "load/pt2/exported_archive.h"

namespace modrec {

class GraphRunner {
 public:
  GraphRunner(const pt2::ExportedArchive& archive, const ModuleTree& tree,
              InstrumentOptions options);

  // One forward over `inputs` (the program's user inputs, in order) with `archive`'s stored
  // tensors; writes buffer mutations back into them. Throws Error(Exit::bad_input) naming the
  // first node whose operator or argument cannot run, before running any; a wrong number of
  // inputs is Error(Exit::model_failed).
  c10::IValue run(std::vector<c10::IValue> inputs, CallHooks& hooks,
                  pt2::ExportedArchive& archive) const;

  const pt2::CallPlan& plan() const { return plan_; }

 private:
  void check_runnable(const pt2::ExportedArchive& archive, size_t inputs) const;

  std::vector<std::optional<DispatcherOp>> ops_;  // per node
  pt2::CallPlan plan_;
  InstrumentOptions options_;
};

}  // namespace modrec
