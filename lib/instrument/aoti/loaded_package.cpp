#include "instrument/aoti/loaded_package.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <optional>

#include "load/operator_libraries.h"
#include "util/error.h"

namespace modrec {
namespace {

namespace fs = std::filesystem;

// `bytes` written to a new file at `path` (never through a link, never over a file).
void write_new(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) throw write_error("cannot extract a package's file", path.string());
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) {
      ::close(fd);
      throw write_error("cannot extract a package's file", path.string());
    }
    done += static_cast<size_t>(n);
  }
  if (::close(fd) != 0) throw write_error("cannot extract a package's file", path.string());
}

// The package's runtime files under `folder`, as load/aoti placed them.
void extract(const Archive& archive, const aoti::Package& package, const fs::path& folder) {
  for (const aoti::RuntimeFile& file : package.layout.runtime)
    write_new(folder / file.to, archive.read(file.entry));
}

// $TMPDIR set to `dir` while alive, as it was after.
class TmpdirOverride {
 public:
  explicit TmpdirOverride(const fs::path& dir) {
    if (const char* was = ::getenv("TMPDIR")) was_ = was;
    ::setenv("TMPDIR", dir.c_str(), 1);
  }
  ~TmpdirOverride() {
    if (was_)
      ::setenv("TMPDIR", was_->c_str(), 1);
    else
      ::unsetenv("TMPDIR");
  }
  TmpdirOverride(const TmpdirOverride&) = delete;
  TmpdirOverride& operator=(const TmpdirOverride&) = delete;

 private:
  std::optional<std::string> was_;
};

}  // namespace

LoadedPackage::LoadedPackage(const Archive& archive, const aoti::Package& package)
    : scratch_("modrec-aoti") {
  const fs::path folder = scratch_.path / "package", tmp = scratch_.path / "tmp";
  extract(archive, package, folder);
  fs::create_directories(tmp);
  load_cuda_backend();  // the compiled library links libtorch.so by name, as operator libraries
  const TmpdirOverride tmpdir(tmp);
  try {
    loader_ = std::make_unique<torch::inductor::AOTIModelPackageLoader>(folder.string(),
                                                                        package.layout.model);
  } catch (const std::exception& e) {  // c10::Error's first line is its message
    throw Error(Exit::bad_input, "AOTInductor package cannot be loaded: " + first_line(e.what()),
                package.path, "compile the package again with the torch of this LibTorch");
  }
}

}  // namespace modrec
