// The fixture folder for tensors/ tests, written once per process by test_fixtures.py.
#pragma once
#include <string>

#include "load/test_python.h"

namespace modrec::test {

inline const std::string& tensor_fixtures() {
  static const TempDir dir("tensors", "/lib/tensors/test_fixtures.py", "make");
  return dir.path;
}

inline std::string fixture(const std::string& name) { return tensor_fixtures() + "/" + name; }

// Runs test_fixtures.py's checks on the files the test wrote into the fixture folder.
inline bool python_checks_written_files() {
  return run_python(std::string(MODREC_SOURCE_DIR) + "/lib/tensors/test_fixtures.py",
                    "check " + shell_quote(tensor_fixtures()));
}

}  // namespace modrec::test
