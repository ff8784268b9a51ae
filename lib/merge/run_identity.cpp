#include "merge/run_identity.h"

#include <optional>

#include "util/error.h"

namespace modrec {
namespace {
using nlohmann::json;

// The JSON pointer of the first place where a and b differ, with both values there.
std::string first_difference(const json& a, const json& b) {
  const json patch = json::diff(a, b);
  const std::string at = patch.at(0).at("path").get<std::string>();
  const json::json_pointer pointer(at);
  const auto value = [&](const json& j) {
    return j.contains(pointer) ? j.at(pointer).dump() : "nothing";
  };
  return (at.empty() ? std::string() : " at " + at) + ": " + value(a) + " vs " + value(b);
}

// The manifest fields that must be equal, by what they are called in the message.
struct Field {
  const char* what;
  json::json_pointer pointer;
};

const std::vector<Field>& identity_fields() {
  static const std::vector<Field> fields{
      {"modrec versions", json::json_pointer("/modrec_version")},
      {"LibTorch versions", json::json_pointer("/libtorch_version")},
      {"models", json::json_pointer("/model/sha256")},
      {"options", json::json_pointer("/options")},
      {"inputs", json::json_pointer("/inputs")},
  };
  return fields;
}

json field_or_null(const json& manifest, const json::json_pointer& at) {
  return manifest.contains(at) ? manifest.at(at) : json();
}

std::optional<std::string> difference(const ShardRun& a, const ShardRun& b) {
  if (a.sharded != b.sharded) return (a.sharded ? b : a).dir() + " was recorded without --shard";
  if (a.part.count != b.part.count)
    return "shard counts differ: " + std::to_string(a.part.count) + " vs " +
           std::to_string(b.part.count);
  for (const Field& f : identity_fields()) {
    const json x = field_or_null(a.run.manifest, f.pointer);
    const json y = field_or_null(b.run.manifest, f.pointer);
    if (x != y) return std::string(f.what) + " differ" + first_difference(x, y);
  }
  return std::nullopt;
}

}  // namespace

void check_same_recording(const ShardRun& a, const ShardRun& b) {
  if (const auto why = difference(a, b))
    throw Error(Exit::bad_input, "cannot merge: " + *why, a.dir() + " and " + b.dir(),
                "merge the shards of one record command: same model, options, inputs, --shard K/N");
}

}  // namespace modrec
