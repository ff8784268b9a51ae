// The readers under fuzz take a path, so each input is written to one scratch file per process
// (in /dev/shm when there is one: a page-cache write costs less than the read it feeds).
#pragma once
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/remove_tree.h"

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

// A folder of this process's own (beside scratch_path), made once and removed at exit: for inputs
// that are one file of several (a shard index beside its shards).
inline const std::string& scratch_folder() {
  // Never destroyed: the atexit handler runs after the statics made before it are gone.
  static const std::string& path = *[] {
    auto* dir = new std::string(scratch_path() + ".d");
    std::filesystem::create_directories(*dir);
    std::atexit([] {
      std::error_code ec;
      modrec::remove_tree(scratch_folder(), ec);
    });
    return dir;
  }();
  return path;
}

// Writes `bytes` to `name` in scratch_folder and returns its path; aborts if it cannot.
inline std::string write_in_folder(const std::string& name, const std::string& bytes) {
  const std::string path = scratch_folder() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out.flush()) std::abort();
  return path;
}

}  // namespace modrec::fuzz
