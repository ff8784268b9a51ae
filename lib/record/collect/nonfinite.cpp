#include "record/collect/nonfinite.h"

#include <limits>

namespace modrec {
namespace {

bool nonfinite(const TensorSummary& t) {
  return t.stats.nan_count() > 0 || t.stats.inf_count() > 0;
}

// Keeps the earliest (by capture order) non-finite value seen.
class Earliest {
 public:
  void see(const CapturedValue& value, int call, Capture capture) {
    for (const auto& t : value.tensors)
      if (nonfinite(t)) offer(value.order, call, capture);
  }
  void see(const std::vector<GradientSlot>& slots, int call, Capture capture) {
    for (const auto& slot : slots)
      if (slot.summary && nonfinite(*slot.summary)) offer(slot.order, call, capture);
  }
  std::optional<NonFinite> found() const { return found_; }

 private:
  void offer(uint64_t order, int call, Capture capture) {
    if (order >= order_) return;
    order_ = order;
    found_ = NonFinite{call, capture};
  }

  uint64_t order_ = std::numeric_limits<uint64_t>::max();
  std::optional<NonFinite> found_;
};

}  // namespace

std::optional<NonFinite> first_nonfinite(const std::deque<CapturedCall>& calls) {
  Earliest earliest;
  for (const CapturedCall& c : calls) {
    earliest.see(c.input, c.call, Capture::input);
    earliest.see(c.output, c.call, Capture::output);
    earliest.see(c.grad_input, c.call, Capture::grad_input);
    earliest.see(c.grad_output, c.call, Capture::grad_output);
  }
  return earliest.found();
}

}  // namespace modrec
