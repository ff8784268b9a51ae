// The readers under fuzz take a path, so each input is written to one scratch file per process
// (in /dev/shm when there is one: a page-cache write costs less than the read it feeds).
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace modrec::fuzz {

inline const std::string& scratch_path() {
  static const std::string path = [] {
    std::filesystem::path dir =
        std::filesystem::exists("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    return (dir / ("modrec-fuzz-" + std::to_string(getpid()) + ".bin")).string();
  }();
  return path;
}

// Writes the input to the scratch file and returns its path; aborts if it cannot (not a finding).
inline const std::string& write_scratch(const uint8_t* data, size_t size) {
  const std::string& path = scratch_path();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out.flush()) std::abort();
  return path;
}

}  // namespace modrec::fuzz
