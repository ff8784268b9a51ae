#include "rundir/run_manifest.h"

#include <doctest/doctest.h>

#include <fstream>

#include "rundir/run_dir.h"
#include "rundir/run_paths.h"
#include "util/error_test_fixtures.h"
#include "util/scratch_dir.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

void write_text(const ScratchDir& dir, const std::string& text) {
  std::ofstream(run_paths::manifest(dir.path.string())) << text;
}

}  // namespace

TEST_CASE("a manifest reads back with its kind and fields, the model file hashed") {
  ScratchDir dir;
  const std::string model = (dir.path / "m.pt").string();
  std::ofstream(model) << "abc";
  RunManifest written = new_run_manifest(RunKind::watch, {"0.2.0", "2.14.1", model});
  written.fields["losses"] = {1.5, nullptr};
  const std::string text = write_run_manifest(dir.path.string(), written);
  CHECK(nlohmann::json::parse(text).at("kind") == "watch");
  const std::optional<RunManifest> back = read_run_manifest(dir.path.string());
  REQUIRE(back);
  CHECK(back->kind == RunKind::watch);
  CHECK(back->fields == written.fields);
  CHECK_FALSE(back->fields.contains("kind"));
  // sha256 of "abc"
  CHECK(back->fields["model"]["sha256"] ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("a manifest of modrec 0.1 has no kind: its command tells a watch run") {
  ScratchDir dir;
  CHECK_FALSE(read_run_manifest(dir.path.string()));
  write_text(dir, R"({"command": "watch", "losses": []})");
  CHECK(read_run_manifest(dir.path.string())->kind == RunKind::watch);
  write_text(dir, R"({"layers": []})");
  CHECK(read_run_manifest(dir.path.string())->kind == RunKind::recording);
}

TEST_CASE("an unknown kind or no JSON object is bad input naming the manifest") {
  ScratchDir dir;
  const std::string file = run_paths::manifest(dir.path.string());
  for (const char* text : {R"({"kind": "training"})", R"({"kind": 3})", "[1]", "{"}) {
    CAPTURE(text);
    write_text(dir, text);
    auto [code, line] = error_of([&] { read_run_manifest(dir.path.string()); });
    CHECK(code == Exit::bad_input);
    CHECK(line.find(file) != std::string::npos);
  }
}

TEST_CASE("a watch run is no recording: read_run_dir says so") {
  ScratchDir dir;
  write_text(dir, R"({"kind": "watch"})");
  auto [code, line] = error_of([&] { read_run_dir(dir.path.string()); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find("a watch run") != std::string::npos);
}
