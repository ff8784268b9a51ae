#include "util/memory.h"

#include <doctest/doctest.h>

#include <fstream>
#include <string>

namespace modrec {

TEST_CASE("physical memory equals /proc/meminfo's MemTotal") {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  meminfo >> key >> kib;
  REQUIRE(key == "MemTotal:");
  const uint64_t bytes = physical_memory_bytes();
  // The kernel reports MemTotal in KiB, sysconf in whole pages of the same total.
  CHECK(bytes / 1024 == doctest::Approx(double(kib)).epsilon(0.001));
}

}  // namespace modrec
