// --input-size specs ("1x3x224x224", "2x12:long") and the random tensors made from them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <ATen/ATen.h>

namespace modrec {

struct InputSizeSpec {
  std::vector<int64_t> shape;
  at::ScalarType dtype = at::kFloat;
};

// Throws Error(Exit::usage, ..., "--input-size", "use e.g. 1x3x224x224 or 2x12:long").
InputSizeSpec parse_input_spec(const std::string& text);

// One tensor per spec, drawn in order from one CPU generator seeded with `seed` (the generator
// Python's torch.manual_seed(seed) sets up): torch.randn for floating types, torch.randint(0, high)
// for integer types and bool (bool draws from [0, min(high, 2))). Throws Error(usage) for high < 1.
std::vector<at::Tensor> random_inputs(const std::vector<InputSizeSpec>& specs, uint64_t seed,
                                      int64_t high);

}  // namespace modrec
