// The memory measured for one module call (memory/memory_meter.h), as plain data, and its JSON
// form in summary's rows and a recording's stats.json (torch-free).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace modrec {

// Nested calls included: the bytes of the tensors autograd saved for the backward while the call
// ran forward (each storage once, parameters and buffers left out), and the peak of allocated
// bytes above what was allocated when its forward (its backward) started.
struct CallMemory {
  int64_t saved_bytes = 0;
  int64_t peak_forward_bytes = 0;
  int64_t peak_backward_bytes = 0;
};

// The whole pass's memory, measured (memory/memory_meter.h).
struct MemoryTotals {
  bool measured = false;
  int64_t peak_forward_bytes = 0;  // the root call's forward peak
  int64_t peak_bytes = 0;          // forward and backward: from the root call's start to the end
  int64_t saved_bytes = 0;         // the root call's
  int forward_peak_call = -1;      // the innermost call open when the forward's peak was reached
  int backward_peak_call = -1;     // the call whose autograd node ran at the backward's peak
};

// The totals with their two calls named (model/module_tree.h's call_name): what summary's footer
// and a recording's manifest show.
struct MeasuredMemory {
  MemoryTotals totals;
  std::string forward_peak_at;
  std::string backward_peak_at;  // "" when no backward ran
};

// {"saved_bytes": ..., "peak_forward_bytes": ..., "peak_backward_bytes": ...}
void to_json(nlohmann::json& out, const CallMemory& memory);
// Error(bad_input) naming `file` when a field is missing or not an integer.
CallMemory call_memory_from_json(const nlohmann::json& in, const std::string& file);

// {"peak_forward_bytes", "peak_bytes", "saved_bytes", "forward_peak_at", "backward_peak_at"}
void to_json(nlohmann::json& out, const MeasuredMemory& memory);

// Each figure the larger of the two (a layer over several batches).
CallMemory largest(const CallMemory& a, const CallMemory& b);
// Each figure the larger, each peak's call that of the pass where it was larger.
MeasuredMemory largest(const MeasuredMemory& a, const MeasuredMemory& b);

}  // namespace modrec
