// diff over the tensors a run saved (.pt / .npy): the only part of check/ that needs LibTorch,
// behind a torch-free header.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "diff/value_diff.h"

namespace modrec {

struct SavedTensorDiff {
  std::vector<int64_t> shape_a, shape_b;
  std::optional<ValueDiff> values;  // none when the shapes differ
};

// Reads one capture's files from each run (a .pt may hold tuples, lists and dicts nested to any
// depth, with None where no gradient arrived; .npy files hold one tensor each), numbers their
// tensors depth-first, and compares tensor pairs[k].first of A with tensor pairs[k].second of B,
// converted to double precision whatever their dtypes, by compare_values (value_diff.h); with the
// default tolerance, pass/fail is torch.allclose(a, b, rtol, atol, equal_nan=True). A pair one of
// whose tensors the files lack gives nullopt.
// Throws Error(bad_input, ..., file) on an unreadable file.
std::vector<std::optional<SavedTensorDiff>> diff_saved_tensors(
    const std::vector<std::string>& files_a, const std::vector<std::string>& files_b,
    const std::vector<std::pair<size_t, size_t>>& pairs, const Tolerance& tol);

}  // namespace modrec
