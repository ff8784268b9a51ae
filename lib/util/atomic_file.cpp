#include "util/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <filesystem>

#include "util/error.h"
#include "util/regular_file.h"

namespace modrec {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& temp, int err) {
  ::unlink(temp.c_str());
  throw Error(Exit::write_failed, std::string("cannot write file: ") + std::strerror(err), path,
              "check free space and write permission on its directory");
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

void write_file_atomic(const std::string& path, std::string_view bytes, bool sync_to_disk) {
  require_file_output(path);
  std::string temp = path + ".tmp-" + std::to_string(::getpid());
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, temp, errno);
  bool ok = write_all(fd, bytes) && (!sync_to_disk || ::fsync(fd) == 0);
  int err = errno;
  if (::close(fd) != 0 && ok) ok = false, err = errno;
  if (!ok) fail(path, temp, err);
  if (std::rename(temp.c_str(), path.c_str()) != 0) fail(path, temp, errno);
}

void make_directories(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw Error(Exit::write_failed, "cannot create directory: " + ec.message(), dir,
                "check permissions and free space");
}

}  // namespace modrec
