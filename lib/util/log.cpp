#include "util/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>

namespace modrec::log {

namespace {

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

}  // namespace

void setup(Level lowest, Format format) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("modrec"));
  if (format == Format::json)
    spdlog::set_pattern(R"({"time":"%Y-%m-%dT%H:%M:%S.%e","level":"%l","message":"%v"})");
  else
    spdlog::set_pattern("modrec: %l: %v");
  spdlog::set_level(spdlog_level(lowest));
}

bool shown(Level level) { return spdlog::should_log(spdlog_level(level)); }

void write(Level level, const std::string& message) {
  spdlog::log(spdlog_level(level), "{}", message);
}

void flush() { spdlog::shutdown(); }

std::string seconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6f", s);
  return text;
}

}  // namespace modrec::log
