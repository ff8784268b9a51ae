#include "util/scratch_dir.h"

#include <stdlib.h>

#include "util/error.h"
#include "util/remove_tree.h"

namespace modrec {
namespace {

std::filesystem::path make_scratch(const std::string& prefix) {
  std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw Error(Exit::write_failed, "cannot create a scratch directory", pattern,
                "set TMPDIR to a writable directory");
  return pattern;
}

}  // namespace

ScratchDir::ScratchDir(const std::string& prefix) : path(make_scratch(prefix)) {}

ScratchDir::~ScratchDir() {
  std::error_code ec;
  std::filesystem::permissions(path, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ec);
  remove_tree(path, ec);
}

}  // namespace modrec
