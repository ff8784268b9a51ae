#include "edit/edit_spec.h"

#include <doctest/doctest.h>

#include "util/error_test_fixtures.h"

using namespace modrec;

TEST_CASE("each operation parses into its kind and numbers") {
  CHECK(parse_edit("1-3=zero").op.kind == EditKind::zero);
  const EditSpec scale = parse_edit("type:Conv2d=scale:0.5");
  CHECK(scale.selectors.text() == "type:Conv2d");
  CHECK(scale.op.kind == EditKind::scale);
  CHECK(scale.op.a == 0.5);
  const EditOp clamp = parse_edit("layer1.0=clamp:-1:2.5").op;
  CHECK(clamp.a == -1);
  CHECK(clamp.b == 2.5);
  CHECK(parse_edit("2-1=noise:0.1").op.kind == EditKind::noise);
  CHECK(parse_edit("2-1=add:-3").op.a == -3);
}

TEST_CASE("selectors keep their commas; keep's channels and replace's path are whole") {
  const EditSpec keep = parse_edit("1-3,1-5=keep:0,2,7");
  CHECK(keep.selectors.text() == "1-3,1-5");
  CHECK(keep.op.channels == std::vector<int64_t>{0, 2, 7});
  const EditSpec replace = parse_edit("re:^fc$=replace:C:/data/x.pt");
  CHECK(replace.selectors.text() == "re:^fc$");
  CHECK(replace.op.file == "C:/data/x.pt");
}

TEST_CASE("bad edits are usage errors naming --edit") {
  for (const char* text :
       {"zero", "1-3=", "=zero", "1-3=scale", "1-3=scale:x", "1-3=clamp:2:1", "1-3=noise:-1",
        "1-3=keep:a", "1-3=keep:-1", "1-3=rotate:90", "1-3=zero:1", "1-3=replace:"}) {
    CAPTURE(text);
    const auto [code, line] = testing::error_of([&] { parse_edit(text); });
    CHECK(code == Exit::usage);
    CHECK(line.find("--edit") != std::string::npos);
  }
}
