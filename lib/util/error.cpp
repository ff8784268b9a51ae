#include "util/error.h"

#include <cerrno>
#include <cstring>
#include <sstream>

namespace modrec {

Error::Error(Exit code, std::string what, std::string where, std::string hint)
    : std::runtime_error(std::move(what)),
      code_(code),
      where_(std::move(where)),
      hint_(std::move(hint)) {}

Error write_error(const std::string& what, const std::string& path) {
  return Error(Exit::write_failed, what + ": " + std::strerror(errno), path,
               "check free space and permissions");
}

std::string Error::line() const {
  std::string out = "modrec: error: ";
  out += what();
  if (!where_.empty()) out += " (" + where_ + ")";
  if (!hint_.empty()) out += ": " + hint_;
  return out;
}

namespace {
bool is_noise(const std::string& line) {
  static const char* noise[] = {
      "Traceback", "Exception raised from",          "frame #",
      "  File \"", "The following operation failed", "RuntimeError: The following"};
  for (const char* n : noise)
    if (line.rfind(n, 0) == 0) return true;
  return line.find_first_not_of(" \t\r") == std::string::npos;
}
}  // namespace

// TorchScript interpreter errors print a serialized-code traceback first and the Python-style
// "RuntimeError: <message>" last; that last line is the one a user needs.
std::string first_line(const std::string& message) {
  std::istringstream in(message);
  std::string line, first, raised;
  while (std::getline(in, line)) {
    auto colon = line.find("Error: ");
    if (colon != std::string::npos && line.find_first_of(" \t") > colon)
      raised = line.substr(colon + 7);
    if (first.empty() && !is_noise(line)) first = line.substr(line.find_first_not_of(" \t"));
  }
  if (!raised.empty()) return raised;
  return first.empty() ? message : first;
}

}  // namespace modrec
