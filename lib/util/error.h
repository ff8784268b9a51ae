// The one error type modrec throws, carrying the exit code of the CLI contract (docs/cli.md).
#pragma once
#include <stdexcept>
#include <string>

namespace modrec {

enum class Exit : int {
  ok = 0,
  check_failed = 1,  // check found a violation, diff found a difference
  usage = 2,         // bad flag, selector, incompatible options
  bad_input = 3,     // unreadable or invalid model, tensor file or run directory
  model_failed = 4,  // the model raised on the given input
  write_failed = 5,  // output could not be written
  // 6 is the pip launcher's (python/modrec/__main__.py): torch missing or of another release.
  internal = 70,  // a bug in modrec, not in the input (sysexits.h's EX_SOFTWARE)
};

// Rendered as one line: "modrec: error: <what> (<where>): <hint>".
class Error : public std::runtime_error {
 public:
  Error(Exit code, std::string what, std::string where, std::string hint = "");
  Exit code() const { return code_; }
  const std::string& where() const { return where_; }
  const std::string& hint() const { return hint_; }
  std::string line() const;

 private:
  Exit code_;
  std::string where_;
  std::string hint_;
};

// Error(write_failed) for a failed system call on `path`: "<what>: <strerror(errno)>".
Error write_error(const std::string& what, const std::string& path);

// The first meaningful line of a (LibTorch) exception message: no C++ frames, no blank lines.
std::string first_line(const std::string& message);

}  // namespace modrec
