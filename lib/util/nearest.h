// The word a misspelt one was meant to be: "did you mean 'summary'?" for `modrec sumary`, and a
// layer selector's valid labels closest first.
#pragma once
#include <string>
#include <vector>

namespace modrec {

// Levenshtein's distance: the fewest one-character insertions, deletions and substitutions that
// turn `a` into `b`.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate nearest to `wanted` by edit_distance, when it is near enough to be a misspelling
// of it (less than a third of its length away, plus one), or one that `wanted` (4 characters or
// more) begins: `--dep` for `--depth`; "" when none is.
std::string nearest(const std::string& wanted, const std::vector<std::string>& candidates);

}  // namespace modrec
