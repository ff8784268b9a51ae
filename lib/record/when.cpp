#include "record/when.h"

#include <algorithm>
#include <cstdlib>

#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw Error(Exit::usage, "bad condition '" + text + "': " + why, "--when",
              "use batch:2,5-7, target:K (with --targets FILE) or nonfinite");
}

int64_t integer(const std::string& text, const std::string& field) {
  char* end = nullptr;
  const long long v = std::strtoll(field.c_str(), &end, 10);
  if (field.empty() || *end != '\0') bad(text, "'" + field + "' is no integer");
  return v;
}

std::pair<int64_t, int64_t> batch_range(const std::string& text, const std::string& item) {
  const size_t dash = item.find('-', 1);
  const int64_t first = integer(text, item.substr(0, dash));
  const int64_t last = dash == std::string::npos ? first : integer(text, item.substr(dash + 1));
  if (first < 1 || last < first) bad(text, "'" + item + "' is no range of batch numbers from 1");
  return {first, last};
}

}  // namespace

When When::parse(const std::string& text) {
  When when;
  when.text = text;
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const std::string arg = colon == std::string::npos ? "" : text.substr(colon + 1);
  if (kind == "nonfinite" && colon == std::string::npos) {
    when.kind = Kind::nonfinite;
  } else if (kind == "batch" && !arg.empty()) {
    when.kind = Kind::batch;
    for (const std::string& item : split(arg, ',')) when.batches.push_back(batch_range(text, item));
  } else if (kind == "target" && !arg.empty()) {
    when.kind = Kind::target;
    when.target = integer(text, arg);
  } else {
    bad(text, "unknown form");
  }
  return when;
}

bool When::runs_batch(int64_t number) const {
  if (kind != Kind::batch) return true;
  return std::any_of(batches.begin(), batches.end(),
                     [&](const auto& r) { return r.first <= number && number <= r.second; });
}

}  // namespace modrec
