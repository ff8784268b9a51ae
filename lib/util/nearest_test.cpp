#include "util/nearest.h"

#include <doctest/doctest.h>

using modrec::edit_distance;
using modrec::nearest;

TEST_CASE("edit_distance counts insertions, deletions and substitutions") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("sumary", "summary") == 1);
  CHECK(edit_distance("recrod", "record") == 2);
  CHECK(edit_distance("abc", "") == 3);
}

TEST_CASE("nearest names a misspelling's word, or a prefix's, else nothing") {
  const std::vector<std::string> commands{"summary", "record", "check", "diff"};
  CHECK(nearest("sumary", commands) == "summary");
  CHECK(nearest("recod", commands) == "record");
  CHECK(nearest("summ", commands) == "summary");
  CHECK(nearest("train", commands) == "");
  CHECK(nearest("x", commands) == "");
  CHECK(nearest("--dept", {"--depth", "--device"}) == "--depth");
  CHECK(nearest("--bogus", {"--depth", "--device", "--input"}) == "");
}
