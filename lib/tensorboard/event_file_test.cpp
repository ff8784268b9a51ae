#include "tensorboard/event_file.h"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "tensorboard/crc32c.h"

using namespace modrec;

namespace {

// The TFRecord frames of a file: each event's bytes, CRCs checked.
std::vector<std::string> frames(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::vector<std::string> out;
  size_t at = 0;
  while (at < bytes.size()) {
    uint64_t n = 0;
    uint32_t crc = 0;
    std::memcpy(&n, bytes.data() + at, 8);
    std::memcpy(&crc, bytes.data() + at + 8, 4);
    CHECK(crc == masked_crc32c(bytes.substr(at, 8)));
    out.push_back(bytes.substr(at + 12, n));
    std::memcpy(&crc, bytes.data() + at + 12 + n, 4);
    CHECK(crc == masked_crc32c(out.back()));
    at += 16 + n;
  }
  return out;
}

}  // namespace

TEST_CASE("an event file frames each event with its length and both CRCs") {
  const auto dir = std::filesystem::temp_directory_path() / "modrec-event-file-test";
  std::filesystem::remove(dir / "x");
  {
    EventFile file((dir / "x").string());
    file.scalar(3, "loss", 0.5);
    file.flush();
    CHECK(file.path().find("/events.out.tfevents.") != std::string::npos);
    const auto events = frames(file.path());
    REQUIRE(events.size() == 2);
    CHECK(events[0].find("brain.Event:2") != std::string::npos);
    CHECK(events[1].find("loss") != std::string::npos);
    std::filesystem::remove(file.path());
  }
  std::filesystem::remove(dir / "x");
}

TEST_CASE("a scalar event is protobuf's wire format of Event{wall_time, step, summary}") {
  const std::string e = scalar_event(0.0, 300, "a", 1.0f);
  // wall_time (field 1, 64-bit), step 300 as a varint (field 2), summary (field 5, 10 bytes):
  // value (field 1, 8 bytes): tag "a" (field 1), simple_value 1.0f (field 2, 32-bit).
  const std::string expected = std::string("\x09\0\0\0\0\0\0\0\0\x10\xAC\x02\x2A\x0A\x0A\x08", 16) +
                               "\x0A\x01" + "a" + std::string("\x15\0\0\x80\x3F", 5);
  CHECK(e == expected);
}
