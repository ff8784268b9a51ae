#include "arguments/input_manifest.h"

#include <cmath>
#include <sstream>

#include "files/scalar_type.h"

namespace modrec {

nlohmann::json source_json(const SampleSource& source) {
  nlohmann::json files = nlohmann::json::array();
  for (const SourceFile& f : source.files())
    files.push_back({{"path", f.path},
                     {"bytes", f.bytes},
                     {"mtime_ns", f.mtime_ns},
                     {"head_sha256", f.head_sha256}});
  std::vector<int64_t> sample_shape = source.sizes();
  if (!sample_shape.empty()) sample_shape.erase(sample_shape.begin());
  return {{"kind", source.kind()},
          {"samples", source.samples() >= 0 ? nlohmann::json(source.samples()) : nlohmann::json()},
          {"sample_shape", sample_shape},
          {"dtype", dtype_name(source.dtype())},
          {"files", files}};
}

nlohmann::json shard_json(const std::optional<Shard>& shard, SampleRange range) {
  if (!shard) return nullptr;
  return {
      {"index", shard->index}, {"count", shard->count}, {"start", range.start}, {"end", range.end}};
}

void add_arguments_json(nlohmann::json& inputs, const InputOptions& options,
                        const ForwardArguments& arguments) {
  nlohmann::json named = nlohmann::json::object(), args = nlohmann::json::object();
  for (const auto& n : options.named_files) named[n.name] = n.text;
  for (const auto& a : arguments) {
    if (a.source) continue;
    if (a.items.empty()) {
      args[a.name] = value_json(a.value);
      continue;
    }
    nlohmann::json items = nlohmann::json::array();  // a List[Tensor] argument: its sources
    for (const auto& item : a.items) items.push_back(source_json(*item));
    args[a.name] = std::move(items);
  }
  inputs["named_files"] = std::move(named);
  inputs["args"] = std::move(args);
}

nlohmann::json value_json(const c10::IValue& v) {
  if (v.isBool()) return v.toBool();
  if (v.isInt()) return v.toInt();
  if (v.isDouble() && std::isfinite(v.toDouble())) return v.toDouble();
  if (v.isString()) return v.toStringRef();
  if (v.isNone()) return nullptr;
  if (v.isList()) {
    nlohmann::json items = nlohmann::json::array();
    for (const auto& item : v.toListRef()) items.push_back(value_json(item));
    return items;
  }
  std::ostringstream text;  // NaN, a device, a dtype...: as TorchScript prints it
  text << v;
  return text.str();
}

}  // namespace modrec
