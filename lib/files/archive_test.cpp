#include "files/archive.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "files/file_kind.h"
#include "load/test_fixtures.h"
#include "util/error.h"
#include "util/error_test_fixtures.h"

using namespace modrec;
using modrec::test::fixture;

namespace {
// Error code and message of Archive::open on a file (Exit::ok when it opens).
std::pair<Exit, std::string> open_error(const std::string& name) {
  return modrec::testing::error_of([&] { Archive::open(fixture(name)); });
}
}  // namespace

TEST_CASE("crc32 matches the standard check value") {
  CHECK(crc32_update(0, "123456789", 9) == 0xCBF43926u);
  // Chunked updates continue the checksum (slicing-by-8 path and byte path).
  std::string text = "The quick brown fox jumps over the lazy dog";
  uint32_t whole = crc32_update(0, text.data(), text.size());
  CHECK(whole == 0x414FA339u);
  CHECK(crc32_update(crc32_update(0, text.data(), 13), text.data() + 13, text.size() - 13) ==
        whole);
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
    const std::string told = std::string(c.file) + ": " + line;  // INFO cannot capture a binding
    INFO(told);
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

namespace {

std::string le_bytes(uint64_t v, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += static_cast<char>((v >> (8 * i)) & 0xFF);
  return out;
}

// A zip with one stored entry "a/data.pkl" holding "x", whose central directory record claims
// `size` (both sizes) through a zip64 extra field.
std::string zip_claiming_size(uint64_t size) {
  const std::string name = "a/data.pkl", data = "x";
  uint32_t crc = crc32_update(0, data.data(), data.size());
  std::string local = le_bytes(0x04034b50, 4) + le_bytes(20, 2) + le_bytes(0, 4) + le_bytes(0, 4) +
                      le_bytes(crc, 4) + le_bytes(1, 4) + le_bytes(1, 4) +
                      le_bytes(name.size(), 2) + le_bytes(0, 2) + name + data;
  std::string extra = le_bytes(1, 2) + le_bytes(16, 2) + le_bytes(size, 8) + le_bytes(size, 8);
  std::string central = le_bytes(0x02014b50, 4) + le_bytes(45, 2) + le_bytes(45, 2) +
                        le_bytes(0, 4) + le_bytes(0, 4) + le_bytes(crc, 4) +
                        le_bytes(0xFFFFFFFF, 4) + le_bytes(0xFFFFFFFF, 4) +
                        le_bytes(name.size(), 2) + le_bytes(extra.size(), 2) + le_bytes(0, 2) +
                        le_bytes(0, 4) + le_bytes(0, 4) + le_bytes(0, 4) + name + extra;
  std::string end = le_bytes(0x06054b50, 4) + le_bytes(0, 4) + le_bytes(1, 2) + le_bytes(1, 2) +
                    le_bytes(central.size(), 4) + le_bytes(local.size(), 4) + le_bytes(0, 2);
  return local + central + end;
}

// A zip whose zip64 end record says the central directory starts at `offset` and spans `size`.
std::string zip64_directory_at(uint64_t offset, uint64_t size) {
  std::string local = le_bytes(0x04034b50, 4) + std::string(26, '\0');
  std::string end64 = le_bytes(0x06064b50, 4) + le_bytes(44, 8) + le_bytes(45, 2) +
                      le_bytes(45, 2) + le_bytes(0, 8) + le_bytes(1, 8) + le_bytes(1, 8) +
                      le_bytes(size, 8) + le_bytes(offset, 8);
  std::string locator =
      le_bytes(0x07064b50, 4) + le_bytes(0, 4) + le_bytes(local.size(), 8) + le_bytes(1, 4);
  std::string end = le_bytes(0x06054b50, 4) + le_bytes(0, 4) + le_bytes(0xFFFF, 2) +
                    le_bytes(0xFFFF, 2) + le_bytes(0xFFFFFFFF, 4) + le_bytes(0xFFFFFFFF, 4) +
                    le_bytes(0, 2);
  return local + end64 + locator + end;
}

std::string write_temp(const std::string& name, const std::string& bytes) {
  static const std::string dir = test::temp_dir("archive");
  std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

}  // namespace

// offset + size wrapped around 2^64, passed the bounds check, and the reader then asked for a
// 2^64-byte buffer: std::length_error instead of Error (found reviewing the readers for fuzzing).
TEST_CASE("zip64 sizes and offsets that wrap around are truncation, not a huge read") {
  std::string sane = write_temp("sane.zip", zip_claiming_size(1));
  CHECK(Archive::open(sane).entries().at(0).size == 1);
  CHECK(inspect_file(sane).kind == FileKind::tensor_pickle);

  std::string huge_entry = write_temp("huge_entry.zip", zip_claiming_size(~uint64_t{0}));
  CHECK_THROWS_WITH_AS(Archive::open(huge_entry), doctest::Contains("is cut off"), Error);
  FileInfo info = inspect_file(huge_entry);
  CHECK(info.kind == FileKind::damaged);
  CHECK(info.detail.find("truncated") != std::string::npos);

  std::string huge_dir = write_temp("huge_dir.zip", zip64_directory_at(2, ~uint64_t{0}));
  CHECK_THROWS_WITH_AS(Archive::open(huge_dir), doctest::Contains("truncated"), Error);
}
