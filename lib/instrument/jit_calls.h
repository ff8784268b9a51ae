// Every use of LibTorch's JIT internals (graph IR, custom operators) lives behind this header and
// jit_calls.cpp, so that porting modrec to another LibTorch version is a change in one file.
#pragma once
#include <torch/script.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "instrument/call_hooks.h"

namespace modrec {

// Rewrites every method graph of every module class under `root` so that each submodule call
// `forward*` is bracketed by modrec::enter/leave ops. Must run before the first forward: the
// graph executor caches optimized plans on the first call and would never see the ops.
void instrument_calls(const torch::jit::Module& root, const InstrumentOptions& options);

// The devices the code of root's module classes names as constants become `device`.
// torch.jit.trace records the device of every tensor a forward made or moved, as a constant:
// `torch.to(CONSTANTS.c0, torch.device("cpu"), 6)` for a torch.tensor(0.5), `arange(...,
// device=torch.device("cuda:0"))` for a model traced on a GPU. As torch.export's
// move_to_device_pass does for an exported program (and modrec's .pt2 runner), they become the
// device the model runs on: on the meta device (summary's pass on shapes), on the CPU when it was
// traced on a GPU, on a GPU with --device cuda. Scripted code names devices by strings
// (torch.device("cuda")), which it keeps. Must run before the first forward, as instrument_calls.
void move_device_constants(const torch::jit::Module& root, const c10::Device& device);

// Makes the graph executor run every graph as written, without the specialization it otherwise
// builds after its first (profiling) runs. That specialization costs memory once, after the first
// pass, and saved no time on the CPU (docs/design-notes.md); without it, modrec executes the
// model's operators as eager PyTorch does, so fused kernels never make recorded values differ from
// eager hooks'. Process-wide.
void run_graphs_as_written();

// The submodule calls of root.forward in static graph order (loop bodies once, both branches of
// an if), as (module path, index of the enclosing call in this list or -1).
std::vector<std::pair<std::string, int>> static_calls(const torch::jit::Module& root);

// The kernel_size a traced pooling module's forward passes to aten::max_pool*d/avg_pool*d, a
// constant of the traced call (tracing keeps parameters, not a module's other attributes); empty
// for any other module or when the first such op's kernel is no constant.
std::vector<int64_t> traced_pool_kernel(const torch::jit::Module& module);

// While alive, the instrumentation ops on this thread report to `hooks`, mapping module objects
// to indices with `by_object` and numbering the calls from 0 as they start.
class ActiveHooks {
 public:
  class ForwardHooks;

  ActiveHooks(const std::unordered_map<const void*, int>& by_object, CallHooks& hooks);
  ~ActiveHooks();
  ActiveHooks(const ActiveHooks&) = delete;
  ActiveHooks& operator=(const ActiveHooks&) = delete;

  // The root's call, which is no CallMethod in any graph, numbered like the others.
  void enter(int module, const std::vector<c10::IValue>& args);
  c10::IValue leave(int module, const c10::IValue& output);

 private:
  std::unique_ptr<ForwardHooks> session_;
  ForwardHooks* previous_;
};

}  // namespace modrec
