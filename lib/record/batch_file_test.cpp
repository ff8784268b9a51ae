// BatchFile: what a pass writes is read back as it was when written.
#include "record/batch_file.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "load/test_python.h"
#include "util/error.h"

using namespace modrec;

TEST_CASE("a stored tensor keeps the values it had when written") {
  BatchFile file(test::temp_dir("spool") + "/batch-1.raw");
  at::Tensor t = at::arange(6, at::kFloat).reshape({2, 3}).t();  // not contiguous
  const StoredTensor s = file.write(t);
  const at::Tensor want = t.clone();
  t.mul_(-1);  // an in-place op later in the pass
  CHECK(s.shape == std::vector<int64_t>{3, 2});
  CHECK(at::equal(read_stored(s), want));
  CHECK(file.seconds() >= 0);
}

TEST_CASE("a stored tensor whose file is gone is a write error naming the file") {
  const std::string path = test::temp_dir("spool") + "/batch-1.raw";
  BatchFile file(path);
  const StoredTensor s = file.write(at::ones({4}));
  std::filesystem::remove(path);
  try {
    read_stored(s);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == Exit::write_failed);
    CHECK(e.where() == path);
  }
}
