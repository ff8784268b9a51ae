// The fixture folder for load/ tests, written once per process by test_fixtures.py.
#pragma once
#include <string>

#include "util/python_test_fixtures.h"

namespace modrec::test {

inline const std::string& load_fixtures() {
  static const TempDir dir("load", "/lib/load/test_fixtures.py");
  return dir.path;
}

inline std::string fixture(const std::string& name) { return load_fixtures() + "/" + name; }

}  // namespace modrec::test
