#include "record/when.h"

#include <doctest/doctest.h>

#include "util/error_test_fixtures.h"

using namespace modrec;

TEST_CASE("batch numbers and ranges") {
  const When w = When::parse("batch:2,5-7");
  CHECK(w.kind == When::Kind::batch);
  for (int64_t b : {2, 5, 6, 7}) CHECK(w.runs_batch(b));
  for (int64_t b : {1, 3, 4, 8}) CHECK_FALSE(w.runs_batch(b));
}

TEST_CASE("target and nonfinite run every batch") {
  const When t = When::parse("target:-3");
  CHECK(t.kind == When::Kind::target);
  CHECK(t.target == -3);
  CHECK(t.runs_batch(1));
  CHECK(When::parse("nonfinite").kind == When::Kind::nonfinite);
  CHECK(When().runs_batch(9));
}

TEST_CASE("bad conditions are usage errors naming --when") {
  for (const char* text : {"", "batch", "batch:", "batch:0", "batch:3-2", "batch:a", "batch:1,,2",
                           "target:", "target:x", "nonfinite:1", "epoch:2"}) {
    CAPTURE(text);
    const auto [code, line] = testing::error_of([&] { When::parse(text); });
    CHECK(code == Exit::usage);
    CHECK(line.find("--when") != std::string::npos);
  }
}
