#include "files/tensor_extent.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

using modrec::extent_elements;
using modrec::extent_fits;
using V = std::vector<int64_t>;

TEST_CASE("a view's extent is its offset, plus (size - 1) x stride per dimension, plus one") {
  CHECK(extent_elements(V{8, 8}, V{8, 1}, 0) == 64);  // a dense Linear weight
  CHECK(extent_elements(V{8, 8}, V{1, 8}, 0) == 64);  // its transpose
  CHECK(extent_elements(V{4}, V{2}, 3) == 10);        // every other element from the fourth
  CHECK(extent_elements(V{}, V{}, 5) == 6);           // a 0-dim view of the sixth element
  CHECK(extent_elements(V{3, 0}, V{0, 1}, 99) == 0);  // no element: any storage holds it
  CHECK(extent_elements(V{5, 4}, V{0, 1}, 0) == 4);   // an expanded (stride 0) view
}

TEST_CASE("numbers no real tensor has are no extent") {
  CHECK_FALSE(extent_elements(V{2}, V{1}, -1));
  CHECK_FALSE(extent_elements(V{-2}, V{1}, 0));
  CHECK_FALSE(extent_elements(V{2}, V{-1}, 0));
  CHECK_FALSE(extent_elements(V{2, 2}, V{1}, 0));  // a stride missing
  const int64_t big = std::numeric_limits<int64_t>::max();
  CHECK_FALSE(extent_elements(V{big}, V{big}, 0));
  CHECK_FALSE(extent_elements(V{1}, V{1}, big));  // the last element is the largest int64
}

TEST_CASE("a view fits a storage that holds its extent, and no smaller one") {
  CHECK(extent_fits(V{8, 8}, V{8, 1}, 0, 64));
  CHECK_FALSE(extent_fits(V{8, 8}, V{8, 1}, 0, 63));
  CHECK_FALSE(extent_fits(V{8, 8}, V{8, 1}, 1, 64));
  CHECK(extent_fits(V{0}, V{1}, 0, 0));
}
