// diff over the tensors a run saved (.pt / .npy): the only part of check/ that needs LibTorch,
// behind a torch-free header.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "check/value_diff.h"

namespace modrec {

struct SavedTensorDiff {
  std::vector<int64_t> shape_a, shape_b;
  std::optional<ValueDiff> values;  // none when the shapes differ
};

// Reads one capture's files from each run (a .pt may hold a tuple; .npy files hold one tensor
// each) and compares the tensors pairwise, in order, in double precision, by compare_values
// (value_diff.h); with the default tolerance, pass/fail is torch.allclose(a, b, rtol, atol,
// equal_nan=True).
// Throws Error(bad_input, ..., file) on an unreadable file.
std::vector<SavedTensorDiff> diff_saved_tensors(const std::vector<std::string>& files_a,
                                                const std::vector<std::string>& files_b,
                                                const Tolerance& tol);

}  // namespace modrec
