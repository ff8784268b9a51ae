#include "tensorboard/tensorboard_options.h"

#include <filesystem>

#include "util/error.h"

namespace modrec {

RunName RunName::parse(const std::string& text) {
  constexpr size_t kMaxName = 255;  // NAME_MAX on Linux and macOS
  const char* problem = text.empty()                           ? "is empty"
                        : text == "." || text == ".."          ? "names no directory of its own"
                        : text.find('/') != std::string::npos  ? "holds a '/'"
                        : text.find('\0') != std::string::npos ? "holds a NUL byte"
                        : text.size() > kMaxName               ? "is longer than 255 bytes"
                                                               : nullptr;
  if (problem)
    throw Error(Exit::usage, "the run name '" + text + "' " + problem, "--tensorboard-run",
                "give one directory name, such as lr-0.1");
  return RunName(text);
}

RunName RunName::of_out(const std::string& out) {
  namespace fs = std::filesystem;
  fs::path path = fs::absolute(out).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();  // "runs/a/": the name before the slash
  const std::string name = path.filename().string();
  if (name.empty() || name == "." || name == "..")
    throw Error(Exit::usage, "--out " + out + " has no name to call the TensorBoard run by",
                "--tensorboard-run", "give --tensorboard-run NAME");
  return parse(name);
}

std::string TensorBoardOptions::run_dir(const std::string& out) const {
  return (std::filesystem::path(log_dir) / run_name(out).str()).string();
}

}  // namespace modrec
