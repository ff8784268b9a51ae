#include "arguments/input_options.h"

#include <regex>

#include "util/error.h"

namespace modrec {

std::optional<NamedText> split_named(const std::string& text) {
  static const std::regex named("([A-Za-z_][A-Za-z0-9_]*)=(.*)");
  std::smatch m;
  if (!std::regex_match(text, m, named)) return std::nullopt;
  return NamedText{m[1], m[2]};
}

NamedText parse_arg_flag(const std::string& text) {
  if (auto named = split_named(text)) return *named;
  throw Error(Exit::usage, "'" + text + "' is not NAME=VALUE", "--arg",
              "name forward's argument, e.g. --arg num_steps=4 (modrec summary MODEL lists them)");
}

std::vector<std::string> InputOptions::all_files() const {
  std::vector<std::string> out = files;
  for (const auto& named : named_files) out.push_back(named.text);
  return out;
}

}  // namespace modrec
