#include "files/tensor_extent.h"

#include <algorithm>

namespace modrec {

std::optional<int64_t> extent_elements(std::span<const int64_t> sizes,
                                       std::span<const int64_t> strides, int64_t offset) {
  const auto negative = [](int64_t n) { return n < 0; };
  if (offset < 0 || strides.size() < sizes.size() || std::ranges::any_of(sizes, negative) ||
      std::ranges::any_of(strides, negative))
    return std::nullopt;
  if (std::ranges::find(sizes, 0) != sizes.end()) return 0;  // no element at all
  int64_t last = offset;
  for (size_t d = 0; d < sizes.size(); ++d) {
    int64_t span = 0;
    if (__builtin_mul_overflow(sizes[d] - 1, strides[d], &span) ||
        __builtin_add_overflow(last, span, &last))
      return std::nullopt;
  }
  int64_t needed = 0;
  if (__builtin_add_overflow(last, 1, &needed)) return std::nullopt;
  return needed;
}

}  // namespace modrec
