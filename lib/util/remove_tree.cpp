#include "util/remove_tree.h"

#include <ftw.h>

#include <cerrno>
#include <cstdio>

namespace modrec {
namespace {

// Called children first (FTW_DEPTH), so every directory is empty when its turn comes.
int remove_entry(const char* path, const struct stat*, int, struct FTW*) {
  return std::remove(path) == 0 ? 0 : errno;
}

}  // namespace

void remove_tree(const std::filesystem::path& path, std::error_code& error) {
  error.clear();
  std::error_code missing;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, missing))) return;
  const int result = nftw(path.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS);
  if (result != 0) error = std::error_code(result > 0 ? result : errno, std::generic_category());
}

void remove_tree(const std::filesystem::path& path) {
  std::error_code error;
  remove_tree(path, error);
  if (error) throw std::filesystem::filesystem_error("cannot remove", path, error);
}

}  // namespace modrec
