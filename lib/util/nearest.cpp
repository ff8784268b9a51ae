#include "util/nearest.h"

#include <algorithm>

namespace modrec {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string nearest(const std::string& wanted, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = wanted.size() / 3 + 1;
  for (const auto& candidate : candidates) {
    const bool prefix = wanted.size() >= 4 && candidate.compare(0, wanted.size(), wanted) == 0;
    const size_t distance = prefix ? 0 : edit_distance(wanted, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace modrec
