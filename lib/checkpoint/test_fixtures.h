// The fixture folder for checkpoint/ tests, written once per process by test_fixtures.py with
// safetensors' and torch's own writers and readers.
#pragma once
#include <string>

#include "util/python_test_fixtures.h"

namespace modrec::test {

inline std::string checkpoint_fixture(const std::string& name) {
  static const TempDir dir("checkpoint", "/lib/checkpoint/test_fixtures.py");
  return dir.path + "/" + name;
}

}  // namespace modrec::test
