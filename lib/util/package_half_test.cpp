#include "util/package_half.h"

#include <doctest/doctest.h>

#include <fstream>

#include "util/scratch_dir.h"

using modrec::model_file;
using modrec::package_half;

TEST_CASE("PATH:compiled and PATH:program name a package's halves; other suffixes do not") {
  const auto half = package_half("dir/both.pt2:compiled");
  REQUIRE(half);
  CHECK(half->file == "dir/both.pt2");
  CHECK(half->half == "compiled");
  CHECK(package_half("both.pt2:program")->half == "program");
  CHECK_FALSE(package_half("both.pt2"));
  CHECK_FALSE(package_half("both.pt2:weights"));
  CHECK(model_file("a:b/both.pt2:compiled") == "a:b/both.pt2");
  CHECK(model_file("both.pt2") == "both.pt2");
}

TEST_CASE("a file whose own name ends in :compiled is that file") {
  modrec::ScratchDir dir;
  const std::string named = (dir.path / "model.pt2:compiled").string();
  std::ofstream(named) << "x";
  CHECK_FALSE(package_half(named));
  CHECK(model_file(named) == named);
}
