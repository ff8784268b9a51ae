#include "load/archive.h"

#include <doctest/doctest.h>

#include <sstream>

#include "load/load_test_fixtures.h"
#include "util/error.h"

using namespace modrec;
using modrec::test::fixture;

namespace {
// Error code and message of Archive::open on a file (Exit::ok when it opens).
std::pair<Exit, std::string> open_error(const std::string& name) {
  try {
    Archive::open(fixture(name));
  } catch (const Error& e) {
    return {e.code(), e.line()};
  }
  return {Exit::ok, ""};
}
}  // namespace

TEST_CASE("crc32 matches the standard check value") {
  CHECK(crc32_update(0, "123456789", 9) == 0xCBF43926u);
  // Chunked updates continue the checksum (slicing-by-8 path and byte path).
  std::string text = "The quick brown fox jumps over the lazy dog";
  uint32_t whole = crc32_update(0, text.data(), text.size());
  CHECK(whole == 0x414FA339u);
  CHECK(crc32_update(crc32_update(0, text.data(), 13), text.data() + 13, text.size() - 13) == whole);
}

TEST_CASE("entries of a TorchScript archive match Python's zipfile") {
  Archive a = Archive::open(fixture("model.pt"));
  std::istringstream expected(test::slurp(fixture("model_entries.txt")));
  std::string name;
  uint64_t crc = 0, size = 0, offset = 0;
  size_t count = 0;
  while (expected >> name >> crc >> size >> offset) {
    const ArchiveEntry* e = a.find(name);
    REQUIRE_MESSAGE(e != nullptr, name);
    CHECK(e->crc32 == crc);
    CHECK(e->size == size);
    CHECK(e->offset == offset);
    ++count;
  }
  CHECK(count == a.entries().size());
  CHECK(a.has("constants.pkl"));
  CHECK(a.has("data.pkl"));
  CHECK_FALSE(a.has("pkl"));  // suffixes match whole path components only
  CHECK(a.has_part("/code/"));
  std::string pkl = a.read(*a.find("data.pkl"));
  CHECK(crc32_update(0, pkl.data(), pkl.size()) == a.find("data.pkl")->crc32);
  CHECK_NOTHROW(a.verify_crc());
}

TEST_CASE("a flipped weight byte fails the CRC check, naming the entry") {
  Archive a = Archive::open(fixture("flipped_weight.pt"));
  try {
    a.verify_crc();
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::bad_input);
    CHECK(std::string(e.what()) == "archive entry model/data/0 is damaged (CRC-32 mismatch)");
    CHECK(e.where() == fixture("flipped_weight.pt"));
  }
}

TEST_CASE("open rejects files that are no complete zip archive") {
  struct Case {
    const char* file;
    const char* fragment;
  } cases[] = {
      {"does-not-exist.pt", "does not exist"},
      {"folder.pt", "is a directory"},
      {"empty.pt", "is empty"},
      {"random.bin", "is not a zip archive"},
      {"tensor.npy", "does not exist"},
      {"array.npy", "is not a zip archive"},
      {"truncated.pt", "is truncated"},
      {"flipped_header.pt", "bad local header"},
  };
  for (const auto& c : cases) {
    auto [code, line] = open_error(c.file);
    INFO((std::string(c.file) + ": " + line));
    CHECK(code == Exit::bad_input);
    CHECK(line.find(c.fragment) != std::string::npos);
    CHECK(line.find(c.file) != std::string::npos);
  }
}

TEST_CASE("reading a deflated entry is refused, not misread") {
  Archive a = Archive::open(fixture("model.pt"));
  for (const auto& e : a.entries())
    if (!e.stored()) {
      CHECK_THROWS_AS(a.read(e), Error);
      return;
    }
  FAIL("expected a deflated code entry in a TorchScript archive");
}
