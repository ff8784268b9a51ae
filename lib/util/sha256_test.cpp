#include "util/sha256.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>

#include "util/error.h"
#include "util/scratch_dir.h"

using modrec::ScratchDir;

namespace {

// First word printed by a shell command: both `sha256sum` and the Python one-liner print hex.
std::string first_word_of(const std::string& command) {
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe);
  char buf[256] = {};
  std::string out = std::fgets(buf, sizeof buf, pipe) ? buf : "";
  ::pclose(pipe);
  return out.substr(0, out.find_first_of(" \n"));
}

std::string hashlib_of_file(const std::string& path) {
  return first_word_of("'" MODREC_PYTHON
                       "' -c \"import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb')"
                       ".read()).hexdigest())\" '" +
                       path + "'");
}

void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// Deterministic bytes whose length is not a multiple of the 64-byte block.
std::string generated_bytes(size_t n) {
  std::string bytes(n, '\0');
  uint32_t x = 12345;
  for (auto& c : bytes) c = static_cast<char>((x = x * 1103515245u + 12345u) >> 16);
  return bytes;
}

}  // namespace

TEST_CASE("sha256_hex matches hashlib on short vectors and every padding boundary") {
  ScratchDir dir;
  std::string path = (dir.path / "v").string();
  for (size_t n : {0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000}) {
    std::string bytes = n == 3 ? "abc" : generated_bytes(n);
    write(path, bytes);
    CAPTURE(n);
    CHECK(modrec::sha256_hex(bytes) == hashlib_of_file(path));
  }
}

TEST_CASE("sha256_file matches sha256sum on the empty file, 'abc' and 1 MB") {
  ScratchDir dir;
  struct Case {
    const char* name;
    std::string bytes;
  };
  for (const Case& c :
       {Case{"empty", ""}, Case{"abc", "abc"}, Case{"mb", generated_bytes(1000 * 1000 + 7)}}) {
    std::string path = (dir.path / c.name).string();
    write(path, c.bytes);
    CAPTURE(c.name);
    std::string expected = first_word_of("sha256sum '" + path + "'");
    REQUIRE(expected.size() == 64);
    CHECK(modrec::sha256_file(path) == expected);
    CHECK(modrec::sha256_hex(c.bytes) == expected);
  }
}

TEST_CASE("sha256_file on a missing file or a directory is bad input naming the path") {
  ScratchDir dir;
  for (std::string path : {(dir.path / "missing").string(), dir.path.string()}) {
    try {
      modrec::sha256_file(path);
      FAIL("no error for " << path);
    } catch (const modrec::Error& e) {
      CHECK(e.code() == modrec::Exit::bad_input);
      CHECK(e.where() == path);
    }
  }
}
