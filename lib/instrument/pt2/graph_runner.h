// A torch.export graph run node by node through the dispatcher (dispatcher_ops.h), and the
// subgraphs of its higher-order operators (higher_order_ops.h) by the same interpreter, with
// autograd as the caller's grad mode says and the parameters as leaves, reporting each module call
// of the graphs' CallPlans to CallHooks as eager forward hooks would see it.
#pragma once
#include <memory>

#include "instrument/call_hooks.h"
#include "load/pt2/exported_archive.h"
#include "model/module_tree.h"

namespace modrec {

class GraphRunner {
 public:
  // Compiles the program's graphs, each node's arguments held to its operator's schema (or to
  // what its higher-order operator takes): Error(Exit::bad_input) naming the node, its operator
  // and the argument that does not fit.
  GraphRunner(const pt2::ExportedArchive& archive, const ModuleTree& tree,
              InstrumentOptions options);
  ~GraphRunner();

  // One forward over `inputs` (the program's user inputs, in order) with `archive`'s stored
  // tensors; writes buffer mutations back into them. Throws Error(Exit::bad_input) naming the
  // first node whose operator or argument cannot run, before running any; a wrong number of
  // inputs is Error(Exit::model_failed); an input's size outside the range its dynamic dimension
  // was exported for is Error(Exit::usage).
  c10::IValue run(std::vector<c10::IValue> inputs, CallHooks& hooks,
                  pt2::ExportedArchive& archive) const;

  struct Compiled;  // a graph ready to run: per node its operator or subgraphs; its calls

 private:
  void check_runnable(const pt2::ExportedArchive& archive,
                      const std::vector<c10::IValue>& inputs) const;

  std::unique_ptr<const Compiled> main_;
  InstrumentOptions options_;
};

}  // namespace modrec
