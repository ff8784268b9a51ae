#include "util/json_text.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace modrec {
namespace {

using json = nlohmann::json;

constexpr std::array<std::string_view, 3> kNonFinite = {"-Infinity", "Infinity", "NaN"};

json::parse_error rejected(std::size_t byte, const std::string& why) {
  return json::parse_error::create(101, byte, why, static_cast<const json*>(nullptr));
}

// The bare non-finite token at `at`, if one starts there.
std::string_view non_finite_at(std::string_view text, std::size_t at) {
  for (std::string_view token : kNonFinite)
    if (text.substr(at, token.size()) == token) return token;
  return {};
}

// Calls fn(i) for each byte of `text` outside its strings (quotes included), in order; fn returns
// how many more bytes it consumed (0 for the byte itself).
template <class Fn>
void for_each_outside_strings(std::string_view text, const Fn& fn) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else {
      i += fn(i);
    }
  }
}

// The text with bare non-finite numbers outside strings quoted; empty when it has none.
std::string quoted_non_finite(std::string_view text) {
  std::string quoted;
  std::size_t copied = 0;  // text before this is in `quoted`
  for_each_outside_strings(text, [&](std::size_t i) -> std::size_t {
    const std::string_view token = non_finite_at(text, i);
    if (token.empty()) return 0;
    quoted.append(text.substr(copied, i - copied)).append("\"").append(token).append("\"");
    copied = i + token.size();
    return token.size() - 1;
  });
  if (copied == 0) return {};
  return quoted.append(text.substr(copied));
}

}  // namespace

std::size_t json_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  for_each_outside_strings(text, [&](std::size_t i) -> std::size_t {
    const char c = text[i];
    if (c == '[' || c == '{')
      deepest = std::max(deepest, ++depth);
    else if ((c == ']' || c == '}') && depth > 0)
      --depth;
    return 0;
  });
  return deepest;
}

json read_json(std::string_view text, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes)
    throw rejected(0, "JSON text of " + std::to_string(text.size()) + " bytes, over the limit of " +
                          std::to_string(limits.max_bytes));
  if (json_depth(text) > limits.max_depth)
    throw rejected(0, "nests its JSON more than " + std::to_string(limits.max_depth) + " deep");
  const std::string rewritten = limits.non_finite ? quoted_non_finite(text) : std::string();
  try {
    return rewritten.empty() ? json::parse(text) : json::parse(rewritten);
  } catch (const json::out_of_range& e) {
    // nlohmann reports a number beyond a double (1e999) so, not as a parse error; every caller
    // catches parse_error only (an uncaught one was an abort: found by fuzz_shard_index).
    const std::string what = e.what();
    throw rejected(0, "holds a number out of range (" + what.substr(what.find("] ") + 2) + ")");
  }
}

json read_json_or_discarded(std::string_view text, const JsonLimits& limits) {
  try {
    return read_json(text, limits);
  } catch (const json::parse_error&) {
    return json(json::value_t::discarded);
  }
}

double json_number(const json& value) {
  if (value.is_number()) return value.get<double>();
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (s == "Infinity") return std::numeric_limits<double>::infinity();
    if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  }
  throw json::type_error::create(302, "expected a number, found " + value.dump(),
                                 static_cast<const json*>(nullptr));
}

}  // namespace modrec
