#include "util/path_overlap.h"

#include <filesystem>

#include "util/error.h"

namespace modrec {
namespace {
namespace fs = std::filesystem;

// The path as it resolves; a glob pattern, the folder before its first wildcard.
fs::path resolved(const std::string& text) {
  fs::path path = fs::absolute(text);
  if (text.find_first_of("*?[") != std::string::npos) {
    fs::path folder;
    for (const auto& part : path) {
      if (part.string().find_first_of("*?[") != std::string::npos) break;
      folder /= part;
    }
    path = folder;
  }
  std::error_code ec;
  const fs::path canonical = fs::weakly_canonical(path, ec);
  return ec ? path.lexically_normal() : canonical;
}

// Whether `inner` is `outer` or lies below it.
bool within(const fs::path& inner, const fs::path& outer) {
  const fs::path relative = inner.lexically_relative(outer);
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::vector<FlagPath> flag_paths(const std::vector<std::string>& paths, const std::string& flag) {
  std::vector<FlagPath> out;
  for (const auto& path : paths) out.push_back({path, flag});
  return out;
}

void refuse_output_over_inputs(const FlagPath& out, const std::vector<FlagPath>& inputs) {
  if (out.path.empty()) return;  // an output not asked for
  const fs::path target = resolved(out.path);
  for (const FlagPath& input : inputs) {
    if (input.path.empty()) continue;
    const fs::path source = resolved(input.path);
    std::string relation;
    if (target == source)
      relation = " is the input ";
    else if (within(target, source))
      relation = " lies inside the input ";
    else if (within(source, target))
      relation = " holds the input ";
    else
      continue;
    throw Error(Exit::usage,
                "the output " + out.path + relation + input.path + " (" + input.flag + ")",
                out.flag, "write the output elsewhere: modrec never changes its inputs");
  }
}

}  // namespace modrec
