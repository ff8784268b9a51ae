#include "util/csv_path.h"

#include <doctest/doctest.h>

TEST_CASE("the root's path is (root) in a CSV cell; others as they are") {
  CHECK(modrec::csv_path("") == "(root)");
  CHECK(modrec::csv_path("layer1.0.conv1") == "layer1.0.conv1");
}
