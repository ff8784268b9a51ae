// An input held to what the compiled program declares of it (wrapper_source.h), before the
// program runs (torch-free). The compiled code reads an input of other sizes as if it had the
// compiled ones (its own checks run only under AOTI_RUNTIME_CHECK_INPUTS=1): 9 rows given to a
// package compiled for 4 return wrong numbers and no error.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "load/aoti/wrapper_source.h"

namespace modrec::aoti {

// What is wrong with an input of `dtype` (torch's name) and `sizes` where the program declares
// `compiled`: "" when nothing, else e.g. "dimension 0 is 9, where the package was compiled for 4".
// The number of dimensions is checked where the code checks the last one.
std::string input_mismatch(const CompiledInput& compiled, const std::string& dtype,
                           const std::vector<int64_t>& sizes);

}  // namespace modrec::aoti
