// modrec's log on stderr: levels chosen by -v/-q, lines as text or JSON (--log-format).
//
// spdlog writes it, behind util/log.cpp alone: used header-only (the pip wheel cannot carry
// Debian's shared spdlog and fmt), its headers are slow to compile in every file that includes
// them (docs/development.md: build time). A message is built from its parts only when its level is
// shown.
#pragma once
#include <sstream>
#include <string>
#include <vector>

namespace modrec::log {

enum class Level { trace, debug, info, warn, error };
enum class Format { text, json };

// From main: the lowest level shown and the line format; called before the command line is parsed
// (its errors are log lines too) and again after.
void setup(Level lowest, Format format);
bool shown(Level level);
// Writes a line; a warning only the first time its text comes.
void write(Level level, const std::string& message);
// Writes out what is buffered (before the process ends without destructors: app/main.cpp).
void flush();

template <class... Parts>
void at(Level level, const Parts&... parts) {
  if (!shown(level)) return;
  std::ostringstream message;
  (message << ... << parts);
  write(level, message.str());
}
template <class... Parts>
void debug(const Parts&... parts) {
  at(Level::debug, parts...);
}
template <class... Parts>
void info(const Parts&... parts) {
  at(Level::info, parts...);
}
template <class... Parts>
void warn(const Parts&... parts) {
  at(Level::warn, parts...);
}
template <class... Parts>
void error(const Parts&... parts) {
  at(Level::error, parts...);
}

// The items a warning lists (module paths, calls): all of them under -v and in JSON lines, else
// the first few and how many more, so that the line stays short (a timm ViT has 111 modules
// without a class: 2,415 characters in full). The warning itself says how many there are.
std::string listed(const std::vector<std::string>& items, const std::string& separator = ", ");
// listed() with the choice made: `all`, or as many of the first items as fit in `width`
// characters (one at least), then "and 108 more (-v: all)".
std::string listed(const std::vector<std::string>& items, const std::string& separator, bool all,
                   size_t width = 45);

// Seconds with six decimals, as the -v timing lines print them (scripts/bench reads those).
std::string seconds(double s);

}  // namespace modrec::log
