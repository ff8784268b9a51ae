#include "load/shared_library_file.h"

#include <dlfcn.h>
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "util/error.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::testing::error_of;

namespace {

// A real shared library of this machine: the libm this test links.
std::string real_library() {
  Dl_info info{};
  double (*cosine)(double) = &std::cos;
  REQUIRE(dladdr(reinterpret_cast<void*>(cosine), &info) != 0);
  return info.dli_fname;
}

std::string bytes_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::string written(const std::string& name, const std::string& bytes) {
  const char* tmp = std::getenv("TMPDIR");
  const std::string path = std::string(tmp ? tmp : "/tmp") + "/modrec_elf_" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

std::string refusal(const std::string& path) {
  auto [code, line] = error_of([&] { check_shared_library_file(path); });
  CHECK(code == Exit::bad_input);
  CHECK(line.find(path) != std::string::npos);
  return line;
}

}  // namespace

TEST_CASE("a whole shared library passes") {
  CHECK_NOTHROW(check_shared_library_file(real_library()));
}

TEST_CASE("the first 4 KB of a real library (SIGBUS in dlopen) are refused as cut short") {
  const std::string head = written("head.so", bytes_of(real_library()).substr(0, 4096));
  CHECK(refusal(head).find("cut short") != std::string::npos);
}

TEST_CASE("files that are no library of this machine are refused before dlopen") {
  CHECK(refusal(written("text.so", "not a library\n")).find("not an ELF") != std::string::npos);
  const std::string elf32 = std::string(
                                "\x7f"
                                "ELF\x01\x01\x01",
                                7) +
                            std::string(9, '\0');
  CHECK(refusal(written("elf32.so", elf32)).find("not a 64-bit") != std::string::npos);
  std::string other = bytes_of(real_library());
  other[18] = 0x28;  // e_machine: ARM (32-bit), little-endian as the header is
  other[19] = 0;
  CHECK(refusal(written("arm.so", other)).find("another architecture") != std::string::npos);
  std::string headers_beyond = bytes_of(real_library());
  headers_beyond[32 + 6] = 0x7f;  // e_phoff: terabytes in
  CHECK(refusal(written("phoff.so", headers_beyond)).find("program headers") != std::string::npos);
}
