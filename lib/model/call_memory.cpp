#include "model/call_memory.h"

#include <algorithm>

#include "util/error.h"

namespace modrec {

void to_json(nlohmann::json& out, const CallMemory& memory) {
  out = {{"saved_bytes", memory.saved_bytes},
         {"peak_forward_bytes", memory.peak_forward_bytes},
         {"peak_backward_bytes", memory.peak_backward_bytes}};
}

CallMemory call_memory_from_json(const nlohmann::json& in, const std::string& file) {
  auto field = [&](const char* name) {
    if (!in.is_object() || !in.contains(name) || !in.at(name).is_number_integer())
      throw Error(Exit::bad_input, std::string("memory: '") + name + "' is not an integer", file,
                  "record the run again with this modrec");
    return in.at(name).get<int64_t>();
  };
  return {field("saved_bytes"), field("peak_forward_bytes"), field("peak_backward_bytes")};
}

void to_json(nlohmann::json& out, const MeasuredMemory& memory) {
  const MemoryTotals& t = memory.totals;
  out = {{"peak_forward_bytes", t.peak_forward_bytes},
         {"peak_bytes", t.peak_bytes},
         {"saved_bytes", t.saved_bytes},
         {"forward_peak_at", memory.forward_peak_at},
         {"backward_peak_at", memory.backward_peak_at}};
}

MeasuredMemory largest(const MeasuredMemory& a, const MeasuredMemory& b) {
  const MemoryTotals &x = a.totals, &y = b.totals;
  MeasuredMemory out = a;
  out.totals.peak_bytes = std::max(x.peak_bytes, y.peak_bytes);
  out.totals.saved_bytes = std::max(x.saved_bytes, y.saved_bytes);
  if (y.peak_forward_bytes > x.peak_forward_bytes) {
    out.totals.peak_forward_bytes = y.peak_forward_bytes;
    out.forward_peak_at = b.forward_peak_at;
  }
  // The backward's peak is the pass's beyond the forward's: the pass with the larger total.
  if (y.peak_bytes > x.peak_bytes) out.backward_peak_at = b.backward_peak_at;
  return out;
}

CallMemory largest(const CallMemory& a, const CallMemory& b) {
  return {std::max(a.saved_bytes, b.saved_bytes),
          std::max(a.peak_forward_bytes, b.peak_forward_bytes),
          std::max(a.peak_backward_bytes, b.peak_backward_bytes)};
}

}  // namespace modrec
