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
