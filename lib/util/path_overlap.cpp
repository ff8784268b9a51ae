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

namespace {

// How `a` sits against `b` as they resolve ("is", "lies inside", "holds"); empty: apart.
std::string overlap(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return "";  // a path not given
  const fs::path pa = resolved(a), pb = resolved(b);
  if (pa == pb) return "is";
  if (within(pa, pb)) return "lies inside";
  if (within(pb, pa)) return "holds";
  return "";
}

}  // namespace

void refuse_output_over_inputs(const FlagPath& out, const std::vector<FlagPath>& inputs) {
  for (const FlagPath& input : inputs) {
    const std::string relation = overlap(out.path, input.path);
    if (relation.empty()) continue;
    throw Error(Exit::usage,
                "the output " + out.path + " " + relation + " the input " + input.path + " (" +
                    input.flag + ")",
                out.flag, "write the output elsewhere: modrec never changes its inputs");
  }
}

void refuse_outputs_together(const FlagPath& a, const FlagPath& b) {
  const std::string relation = overlap(a.path, b.path);
  if (relation.empty()) return;
  throw Error(
      Exit::usage,
      "the output " + a.path + " " + relation + " the output " + b.path + " (" + b.flag + ")",
      a.flag, "give the two outputs apart");
}

}  // namespace modrec
