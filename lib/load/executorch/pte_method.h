// forward of a loaded .pte as ExecuTorch's runtime describes it (the shim's ModrecEtMethod,
// executorch_abi.h), typed: what an ETRecord is checked against and what binds the inputs.
// Torch-free.
#pragma once
#include <cstdint>
#include <vector>

#include "load/executorch/executorch_abi.h"

namespace modrec {

// An input's or output's dtype (a c10::ScalarType number: ExecuTorch numbers its own the same)
// and sizes (an upper bound where the program takes dynamic sizes); dtype -1: no tensor.
struct PteValue {
  int dtype = -1;
  std::vector<int64_t> sizes;
  bool tensor() const { return dtype >= 0; }
};

struct PteMethod {
  int64_t instructions = 0;
  std::vector<PteValue> inputs;
  std::vector<PteValue> outputs;
};

PteMethod pte_method(const ModrecEtMethod& method);

}  // namespace modrec
