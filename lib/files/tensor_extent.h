// How far into its storage a strided view reaches, from numbers a file states (torch-free): the
// one rule every file kind's tensors are checked by before their values are read.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

namespace modrec {

// The storage elements a view of `sizes` and `strides` from `offset` needs: offset + Σ (size − 1)
// × stride + 1, or 0 when it has no element. nullopt when a number is negative, the strides are
// fewer than the sizes, or the sum overflows: the file is damaged, whatever its storage holds.
std::optional<int64_t> extent_elements(std::span<const int64_t> sizes,
                                       std::span<const int64_t> strides, int64_t offset);

// Whether that view lies within `elements` elements.
inline bool extent_fits(std::span<const int64_t> sizes, std::span<const int64_t> strides,
                        int64_t offset, int64_t elements) {
  const std::optional<int64_t> needed = extent_elements(sizes, strides, offset);
  return needed && *needed <= elements;
}

}  // namespace modrec
