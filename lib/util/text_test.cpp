#include <doctest/doctest.h>

#include "util/text.h"

using modrec::csv_field;
using modrec::shape_text;

TEST_CASE("shape_text joins dimensions with x") {
  CHECK(shape_text({2, 64, 16, 16}) == "2x64x16x16");
  CHECK(shape_text({0}) == "0");
  CHECK(shape_text({}).empty());
}

TEST_CASE("csv_field quotes only when needed, doubling quotes") {
  CHECK(csv_field("layer1.0.conv1") == "layer1.0.conv1");
  CHECK(csv_field("a,b") == "\"a,b\"");
  CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv_field("two\nlines") == "\"two\nlines\"");
}

TEST_CASE("split keeps empty fields") {
  CHECK(modrec::split("a,b,,c", ',') == std::vector<std::string>{"a", "b", "", "c"});
  CHECK(modrec::split("", ',') == std::vector<std::string>{""});
  CHECK(modrec::split("clamp:-1:2", ':') == std::vector<std::string>{"clamp", "-1", "2"});
}

TEST_CASE("valid_utf8 accepts what Python's str.decode('utf-8') accepts") {
  using modrec::valid_utf8;
  for (const char* good : {"", "weight", "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "a\nb"})
    CHECK(valid_utf8(good));
  // A lone continuation or lead byte, a cut sequence, an overlong '/', a surrogate, > U+10FFFF.
  for (const char* bad :
       {"\xff", "\x80", "caf\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82"})
    CHECK_FALSE(valid_utf8(bad));
}

TEST_CASE("one_line turns control characters into '?'") {
  CHECK(modrec::one_line("a\nb\rc\x1d\x7f") == "a?b?c??");
  CHECK(modrec::one_line("caf\xc3\xa9") == "caf\xc3\xa9");
}
