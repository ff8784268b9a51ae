// --when nonfinite: where in a pass the first NaN or ±Inf was recorded.
#pragma once
#include <deque>
#include <optional>
#include <string>

#include "record/collect/recorder.h"

namespace modrec {

struct NonFinite {
  int call = 0;  // index in the pass
  Capture capture = Capture::output;
};

// What the manifest reports of the first NaN or ±Inf a run recorded.
struct FirstNonFinite {
  int64_t batch = 0;  // number, from 1
  std::string label;
  std::string path;
  Capture capture = Capture::output;
};

// The captured value holding a NaN or ±Inf that came to exist first (inputs as their call
// started, outputs as it returned, gradients as backward produced them): with outputs recorded,
// the innermost call that produced the first one. Nothing when all are finite.
std::optional<NonFinite> first_nonfinite(const std::deque<CapturedCall>& calls);

}  // namespace modrec
