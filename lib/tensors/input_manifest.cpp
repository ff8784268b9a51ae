#include "tensors/input_manifest.h"

#include "tensors/dtype.h"

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

}  // namespace modrec
