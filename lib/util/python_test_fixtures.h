// Test helper: fixtures are written at test time by PyTorch itself (MODREC_PYTHON, the pinned
// environment's Python), so the expected values come from Python, never from modrec.
// Header-only; tensor_files/, sources/ and arguments/ tests use it too.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "util/remove_tree.h"

namespace modrec::test {

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Runs the oracle's Python with a script file (path from the source tree) and arguments; true on
// exit 0.
inline bool run_python(const std::string& script, const std::string& args) {
  std::string cmd = shell_quote(MODREC_PYTHON) + " " + shell_quote(script) + " " + args;
  return std::system(cmd.c_str()) == 0;
}

// Runs Python code given inline; true on exit 0.
inline bool python_ok(const std::string& code) {
  return std::system((shell_quote(MODREC_PYTHON) + " -c " + shell_quote(code)).c_str()) == 0;
}

// A fresh temporary folder, made once per `tag` and process.
inline std::string temp_dir(const std::string& tag) {
  std::string pattern =
      (std::filesystem::temp_directory_path() / ("modrec-" + tag + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

// A temporary folder filled by a fixture script (path relative to the source tree, run with
// `first_arg` and the folder as arguments), removed at exit.
struct TempDir {
  std::string path;
  TempDir(const std::string& tag, const std::string& script, const std::string& first_arg = "")
      : path(temp_dir(tag)) {
    if (!run_python(std::string(MODREC_SOURCE_DIR) + script, first_arg + " " + shell_quote(path)))
      throw std::runtime_error(script + " failed");
  }
  ~TempDir() {
    std::error_code ec;
    modrec::remove_tree(path, ec);
  }
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace modrec::test
