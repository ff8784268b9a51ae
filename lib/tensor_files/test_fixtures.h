// The fixture folder for the tests of tensor_files/, sources/ and arguments/, written once per
// process by test_fixtures.py, and the tensors they build.
#pragma once
#include <ATen/ATen.h>

#include <string>

#include "util/python_test_fixtures.h"

namespace modrec::test {

inline const std::string& tensor_fixtures() {
  static const TempDir dir("tensors", "/lib/tensor_files/test_fixtures.py", "make");
  return dir.path;
}

inline std::string fixture(const std::string& name) { return tensor_fixtures() + "/" + name; }

// Runs test_fixtures.py's checks (`mode`: check, or check-random for random_inputs' file) on the
// files the test wrote into the fixture folder.
inline bool python_checks_written_files(const std::string& mode = "check") {
  return run_python(std::string(MODREC_SOURCE_DIR) + "/lib/tensor_files/test_fixtures.py",
                    mode + " " + shell_quote(tensor_fixtures()));
}

// 0, 1, 2, ... as `rows` samples of 3 values.
inline at::Tensor counting(int64_t first_row, int64_t rows, at::ScalarType type = at::kFloat) {
  return at::arange(first_row * 3, (first_row + rows) * 3).reshape({rows, 3}).to(type);
}

}  // namespace modrec::test
