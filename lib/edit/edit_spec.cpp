#include "edit/edit_spec.h"

#include <cmath>
#include <cstdlib>

#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

const char kForms[] =
    "use SELECTOR=OP with OP one of zero, scale:K, add:K, clamp:LO:HI, noise:SIGMA, "
    "replace:FILE, keep:I,J,...";

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw Error(Exit::usage, "bad edit '" + text + "': " + why, "--edit", kForms);
}

double number(const std::string& text, const std::string& field) {
  char* end = nullptr;
  const double v = std::strtod(field.c_str(), &end);
  if (field.empty() || *end != '\0' || !std::isfinite(v)) bad(text, "'" + field + "' is no number");
  return v;
}

std::vector<int64_t> channels(const std::string& text, const std::string& list) {
  std::vector<int64_t> out;
  for (const std::string& item : split(list, ',')) {
    char* end = nullptr;
    const long long v = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || v < 0) bad(text, "'" + item + "' is no channel index");
    out.push_back(v);
  }
  return out;
}

EditOp parse_op(const std::string& text, const std::string& op) {
  const std::vector<std::string> parts = split(op, ':');
  const std::string& name = parts[0];
  auto args = [&](size_t n) {
    if (parts.size() != n + 1) bad(text, name + " takes " + std::to_string(n) + " argument(s)");
  };
  EditOp out;
  if (name == "zero") {
    args(0);
  } else if (name == "scale" || name == "add" || name == "noise") {
    args(1);
    out.kind = name == "scale" ? EditKind::scale : name == "add" ? EditKind::add : EditKind::noise;
    out.a = number(text, parts[1]);
    if (out.kind == EditKind::noise && out.a < 0) bad(text, "SIGMA must not be negative");
  } else if (name == "clamp") {
    args(2);
    out.kind = EditKind::clamp;
    out.a = number(text, parts[1]);
    out.b = number(text, parts[2]);
    if (out.a > out.b) bad(text, "LO is above HI");
  } else if (name == "replace") {
    out.kind = EditKind::replace;
    out.file = op.substr(op.find(':') + 1);  // a path may hold ':'
    if (parts.size() < 2 || out.file.empty()) bad(text, "replace needs a FILE");
  } else if (name == "keep") {
    args(1);
    out.kind = EditKind::keep;
    out.channels = channels(text, parts[1]);
  } else {
    bad(text, "unknown operation '" + name + "'");
  }
  return out;
}

}  // namespace

EditSpec parse_edit(const std::string& text) {
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    bad(text, "expected SELECTOR=OP");
  return {LayerMatcher(text.substr(0, eq)), parse_op(text, text.substr(eq + 1)), text};
}

}  // namespace modrec
