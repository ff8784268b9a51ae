#include "util/regular_file.h"

#include <sys/stat.h>

#include <filesystem>

#include "util/error.h"

namespace modrec {

std::string non_regular_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  switch (st.st_mode & S_IFMT) {
    case S_IFREG:
      return "";
    case S_IFDIR:
      return "a directory";
    case S_IFCHR:
      return "a character device";
    case S_IFBLK:
      return "a block device";
    case S_IFIFO:
      return "a FIFO (named pipe)";
    case S_IFSOCK:
      return "a socket";
    default:
      return "not a regular file";
  }
}

void require_regular_file(const std::string& path, const std::string& what) {
  const std::string kind = non_regular_kind(path);
  if (!kind.empty())
    throw Error(Exit::bad_input, what + " is " + kind + ", not a regular file", path,
                "save the data to a file and give its path");
}

void require_file_output(const std::string& path) {
  const std::string kind = non_regular_kind(path);
  if (!kind.empty())
    throw Error(Exit::write_failed,
                "the output path is " + kind + ", not a file modrec may replace", path,
                "give the path of a file to write");
}

void require_new_file_output(const std::string& path, bool force) {
  require_file_output(path);
  if (!force && std::filesystem::exists(path))
    throw Error(Exit::write_failed, "output file already exists", path,
                "pass --force to replace it, or choose another --out");
}

}  // namespace modrec
