// PATH:compiled and PATH:program name the halves of a .pt2 package that holds both a program and
// its compiled code (load/file_kind.h's inspect_file reads each as its kind). The file itself is
// PATH: what is hashed, and kept apart from --out.
#pragma once
#include <optional>
#include <string>

namespace modrec {

struct PackageHalf {
  std::string file;  // PATH
  std::string half;  // "compiled" or "program"
};

// The half `path` names; nullopt when it names none, or names a file that exists under that very
// name.
std::optional<PackageHalf> package_half(const std::string& path);

// The file `path` is read from: PATH for a half, else `path`.
std::string model_file(const std::string& path);

}  // namespace modrec
