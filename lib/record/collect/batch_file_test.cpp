// BatchFile: what a pass writes is read back as it was when written.
#include "record/collect/batch_file.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "util/python_test_fixtures.h"
#include "util/error.h"

using namespace modrec;

TEST_CASE("a stored tensor keeps the values it had when written") {
  BatchFile file(test::temp_dir("spool") + "/batch-1.raw");
  at::Tensor t = at::arange(6, at::kFloat).reshape({2, 3}).t();  // not contiguous
  const BatchFileTensor s = file.write(t);
  const at::Tensor want = t.clone();
  t.mul_(-1);  // an in-place op later in the pass
  CHECK(s.shape == std::vector<int64_t>{3, 2});
  CHECK(at::equal(take_stored(s), want));
  CHECK(file.seconds() >= 0);
}

TEST_CASE("a stored tensor whose file is gone is a write error naming the file") {
  const std::string path = test::temp_dir("spool") + "/batch-1.raw";
  BatchFile file(path);
  const BatchFileTensor s = file.write(at::ones({4}));
  std::filesystem::remove(path);
  try {
    take_stored(s);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::write_failed);
    CHECK(e.where() == path);
  }
}

namespace {
int64_t allocated_kib(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return static_cast<int64_t>(st.st_blocks) / 2;
}

bool can_punch_holes(const std::string& dir) {
  const std::string probe = dir + "/probe";
  const int fd = ::open(probe.c_str(), O_RDWR | O_CREAT, 0644);
  const bool ok = fd >= 0 && ::ftruncate(fd, 1 << 16) == 0 &&
                  ::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, 4096) == 0;
  if (fd >= 0) ::close(fd);
  return ok;
}
}  // namespace

TEST_CASE("take_stored gives the disk space of the tensor it read back") {
  const std::string dir = test::temp_dir("spool");
  if (!can_punch_holes(dir)) {
    MESSAGE("this filesystem cannot punch holes: nothing to check");
    return;
  }
  const std::string path = dir + "/batch-1.raw";
  BatchFile file(path);
  const BatchFileTensor kept = file.write(at::ones({1 << 18}));  // 1 MiB
  const BatchFileTensor gone = file.write(at::ones({1 << 18}));
  const int64_t before = allocated_kib(path);
  CHECK(at::equal(take_stored(gone), at::ones({1 << 18})));  // read before the hole
  CHECK(allocated_kib(path) <= before - 1000);
  CHECK(at::equal(take_stored(kept), at::ones({1 << 18})));
}
