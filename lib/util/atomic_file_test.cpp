#include "util/atomic_file.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <fstream>

#include "util/error.h"
#include "util/scratch_dir.h"

namespace fs = std::filesystem;
using modrec::ScratchDir;

namespace {
std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}
}  // namespace

TEST_CASE("write_file_atomic creates and replaces a file, leaving no temporary") {
  ScratchDir scratch;
  fs::path path = scratch.path / "manifest.json";
  std::string binary("a\0b\n", 4);
  modrec::write_file_atomic(path.string(), binary);
  CHECK(read(path) == binary);
  modrec::write_file_atomic(path.string(), "second", true);
  CHECK(read(path) == "second");
  CHECK(std::distance(fs::directory_iterator(scratch.path), {}) == 1);
}

TEST_CASE("write_file_atomic into a missing directory is a write failure naming the path") {
  ScratchDir scratch;
  fs::path path = scratch.path / "missing" / "manifest.json";
  try {
    modrec::write_file_atomic(path.string(), "x");
    FAIL("no error");
  } catch (const modrec::Error& e) {
    CHECK(e.code() == modrec::Exit::write_failed);
    CHECK(e.where() == path.string());
  }
}

TEST_CASE("a failed rename keeps the target and removes the temporary") {
  ScratchDir scratch;
  fs::path path = scratch.path / "taken";
  fs::create_directories(path / "nonempty");  // rename() cannot replace a non-empty directory
  CHECK_THROWS_AS(modrec::write_file_atomic(path.string(), "x"), modrec::Error);
  CHECK(fs::is_directory(path / "nonempty"));
  CHECK_FALSE(fs::exists(path.string() + ".tmp-" + std::to_string(getpid())));
}
