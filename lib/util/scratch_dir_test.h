// Test helper: a fresh directory under $TMPDIR, removed with everything in it at scope exit.
#pragma once
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace modrec::testing {

struct ScratchDir {
  std::filesystem::path path;
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "modrec-test-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace modrec::testing
