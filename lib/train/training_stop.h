// Where a non-finite loss stopped `watch` (torch-free: the CLI reports it).
#pragma once
#include <cstdint>
#include <string>

namespace modrec {

struct TrainingStop {
  int64_t step = 0;
  // The call whose output held the first NaN or ±Inf; empty when every output was finite (the
  // loss itself was not).
  std::string label, path;
};

}  // namespace modrec
