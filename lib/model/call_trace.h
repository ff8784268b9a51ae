// What one forward pass did, module call by module call, as plain data (torch-free).
// Produced by pass/ from the instrumented model, read by summary/ and record/.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/call_memory.h"
#include "model/module_tree.h"

namespace modrec {

// One tensor of a call's arguments or result: what a row and a recording tell of it.
struct TensorInfo {
  Shape shape;
  // torch's name without prefix: "float32", "int64", "bfloat16" (files/scalar_type.h's
  // dtype_name); text, since a tensor may have any dtype torch has and model/ is torch-free.
  std::string dtype;
  int64_t elem_bytes = 0;
};

// The arguments (or the return value) of one call.
struct ValueMeta {
  // torchinfo's calculate_size(): the shape of the first tensor found depth-first (the last value
  // of a dict), [] when there is none, and that tensor's element size.
  Shape size;
  int64_t elem_bytes = 0;
  std::vector<TensorInfo> tensors;  // every tensor, flattened depth-first
};

struct Call {
  int module = 0;         // index in ModuleTree::modules
  int parent_call = -1;   // the call open when this one started (-1 for the root call)
  ValueMeta inputs;       // positional arguments (without self)
  ValueMeta outputs;      // valid when finished
  bool finished = false;  // the call returned (false: the model raised inside it)
  // The call passed no argument and returned None: what torch.jit.trace leaves of a module whose
  // work it did not record (Identity, Dropout or StochasticDepth in eval). Nothing to record.
  bool traced_away = false;
  // FLOPs of the operators this call ran itself, not in nested calls (when
  // CallTrace::flops_counted): in its forward, and in the backward of the autograd nodes its
  // forward created.
  int64_t flops_forward = 0;
  int64_t flops_backward = 0;
  // What the file does not keep of the call (a .pt2 archive's call without a signature): which
  // arguments eager forward was given by keyword (`inputs` takes them all as positional), and
  // the structure of its result (`outputs` is its tensors, a tuple in the order they were made).
  bool keywords_untold = false;
  bool structure_untold = false;
  CallMemory memory;  // when CallTrace::memory.measured
};

// Calls in the order they started (a forward pre-hook's order); calls[0] is the root's when
// the model ran. Without an input this is the static call order, with nothing finished.
struct CallTrace {
  std::vector<Call> calls;
  bool ran = false;            // false: static structure only, no shapes
  bool flops_counted = false;  // the pass ran under the FLOP observer (flops/op_observer.h)
  MemoryTotals memory;
  // Operators that ran without a FLOP formula (or with arguments it cannot read), by name.
  std::map<std::string, int64_t> unattributed_ops;
};

// A call per module of `tree`, in its order, each in its parent's: the static trace of a model
// whose modules are each called once (a .pt2 program; compiled code's root and constants).
inline CallTrace call_per_module(const ModuleTree& tree) {
  CallTrace trace;
  for (const Module& m : tree.modules)
    trace.calls.push_back(Call{static_cast<int>(trace.calls.size()), m.parent, {}, {}, false});
  return trace;
}

}  // namespace modrec
