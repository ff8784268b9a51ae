#include "util/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "util/progress.h"
#include "util/text.h"

namespace modrec::log {

namespace {

Format line_format = Format::text;

spdlog::level::level_enum spdlog_level(Level level) {
  switch (level) {
    case Level::trace:
      return spdlog::level::trace;
    case Level::debug:
      return spdlog::level::debug;
    case Level::info:
      return spdlog::level::info;
    case Level::warn:
      return spdlog::level::warn;
    case Level::error:
      return spdlog::level::err;
  }
  return spdlog::level::info;
}

// A warning is said once per process, as Python's warnings are once per place: a model opened a
// second time (read with its weights after the pass on the meta device failed) would say again
// what its first opening said.
bool said_before(const std::string& warning) {
  static std::mutex mutex;
  static std::set<std::string> said;
  const std::lock_guard<std::mutex> lock(mutex);
  return !said.insert(warning).second;
}

}  // namespace

void setup(Level lowest, Format format) {
  line_format = format;
  // Twice in a process: before the command line is parsed (its errors are log lines too) and after.
  if (!spdlog::get("modrec")) spdlog::set_default_logger(spdlog::stderr_color_mt("modrec"));
  if (format == Format::json)
    spdlog::set_pattern(R"({"time":"%Y-%m-%dT%H:%M:%S.%e","level":"%l","message":"%v"})");
  else
    spdlog::set_pattern("modrec: %l: %v");
  spdlog::set_level(spdlog_level(lowest));
}

bool shown(Level level) { return spdlog::should_log(spdlog_level(level)); }

// A JSON line's message is a JSON string: quotes, backslashes and control characters escaped
// (LibTorch's warnings hold quotes), without the surrounding quotes the pattern writes.
void write(Level level, const std::string& message) {
  if (level == Level::warn && said_before(message)) return;
  progress::clear();
  if (line_format == Format::json) {
    const std::string quoted =
        nlohmann::json(message).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    spdlog::log(spdlog_level(level), "{}", quoted.substr(1, quoted.size() - 2));
    return;
  }
  spdlog::log(spdlog_level(level), "{}", message);
}

void flush() { spdlog::shutdown(); }

std::string listed(const std::vector<std::string>& items, const std::string& separator) {
  return listed(items, separator, line_format == Format::json || shown(Level::debug));
}

std::string listed(const std::vector<std::string>& items, const std::string& separator, bool all,
                   size_t width) {
  if (all) return join(items, separator);
  std::string out;
  size_t n = 0;
  for (; n < items.size(); ++n) {
    const std::string next = (n ? separator : "") + items[n];
    if (n && out.size() + next.size() > width) break;
    out += next;
  }
  if (n < items.size()) out += " and " + std::to_string(items.size() - n) + " more (-v: all)";
  return out;
}

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", s);
  return text;
}

}  // namespace modrec::log
