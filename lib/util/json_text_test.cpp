#include "util/json_text.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using modrec::json_number;
using modrec::JsonLimits;
using modrec::read_json;
using modrec::read_json_or_discarded;
using json = nlohmann::json;

TEST_CASE("read_json parses ordinary JSON as nlohmann does") {
  const json j = read_json(R"({"a": [1, 2.5, "x\"]"], "b": {"c": null}})");
  CHECK(j.at("a").at(2) == "x\"]");
  CHECK(j.at("b").at("c").is_null());
  CHECK_THROWS_AS(read_json("{\"a\": "), json::parse_error);
}

TEST_CASE("read_json refuses nesting beyond the limit before parsing, without recursing") {
  CHECK(modrec::json_depth(R"([{"a": "[[["}, [[]]])") == 3);
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  CHECK_THROWS_WITH_AS(read_json(deep), doctest::Contains("nests its JSON more than 512 deep"),
                       json::parse_error);
  CHECK(read_json_or_discarded(deep).is_discarded());
  const std::string ok = std::string(40, '[') + std::string(40, ']');
  CHECK(read_json(ok, JsonLimits{.max_depth = 40}).is_array());
  CHECK_THROWS(read_json(ok, JsonLimits{.max_depth = 39}));
  // Brackets inside strings are text, not nesting.
  CHECK(read_json("[\"" + std::string(1000, '[') + "\"]", JsonLimits{.max_depth = 2}).size() == 1);
}

TEST_CASE("read_json refuses text over the size limit") {
  CHECK_THROWS_WITH_AS(read_json("[1, 2, 3]", JsonLimits{.max_bytes = 4}),
                       doctest::Contains("over the limit of 4"), json::parse_error);
}

TEST_CASE("bare non-finite numbers, as Python's json writes them, only where allowed") {
  const std::string text =
      R"({"s": -Infinity, "t": [NaN, Infinity], "u": "-Infinity NaN", "v": -1})";
  CHECK_THROWS_AS(read_json(text), json::parse_error);
  const json j = read_json(text, JsonLimits{.non_finite = true});
  CHECK(j.at("s") == "-Infinity");
  CHECK(std::isinf(json_number(j.at("s"))));
  CHECK(json_number(j.at("s")) < 0);
  CHECK(std::isnan(json_number(j.at("t").at(0))));
  CHECK(json_number(j.at("t").at(1)) > 0);
  CHECK(j.at("u") == "-Infinity NaN");  // inside a string: untouched
  CHECK(json_number(j.at("v")) == -1);
  CHECK_THROWS_AS(json_number(json("x")), json::type_error);
}

TEST_CASE("read_json refuses a number beyond a double as a parse error, as every caller catches") {
  CHECK_THROWS_AS(read_json("[1e999]"), nlohmann::json::parse_error);
  CHECK(read_json_or_discarded("{\"a\": -1e999}").is_discarded());
}
