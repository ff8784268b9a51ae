#include "util/remove_tree.h"

#include <doctest/doctest.h>

#include <fstream>

namespace fs = std::filesystem;

TEST_CASE("remove_tree removes nested files and folders, and links but not their targets") {
  const fs::path root = fs::temp_directory_path() / "modrec-remove-tree-test";
  const fs::path kept = fs::temp_directory_path() / "modrec-remove-tree-kept";
  fs::create_directories(root / "a" / "b");
  fs::create_directories(kept);
  std::ofstream(root / "a" / "b" / "f.txt") << "x";
  std::ofstream(root / "g.txt") << "y";
  std::ofstream(kept / "target.txt") << "z";
  fs::create_directory_symlink(kept, root / "a" / "link");
  std::error_code error;
  modrec::remove_tree(root, error);
  CHECK(!error);
  CHECK(!fs::exists(root));
  CHECK(fs::exists(kept / "target.txt"));
  modrec::remove_tree(kept);
  CHECK(!fs::exists(kept));
}

TEST_CASE("a missing path is no error") {
  std::error_code error;
  modrec::remove_tree(fs::temp_directory_path() / "modrec-remove-tree-missing", error);
  CHECK(!error);
}
