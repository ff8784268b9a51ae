#include "merge/merged_manifest.h"

#include "merge/combine_rule.h"

namespace modrec {
namespace {
using nlohmann::json;

// Adds dim 0 of `part`'s concatenated captures' shapes to `whole`'s (layers in the same order).
void add_shapes(json& whole, const json& part, Reduce reduce) {
  for (size_t l = 0; l < whole.size(); ++l)
    for (auto& [capture, entry] : whole[l].at("captures").items()) {
      if (combine_rule(capture, reduce) != Combine::concatenate) continue;
      const json& shapes = part[l].at("captures").at(capture).at("shapes");
      for (size_t t = 0; t < entry.at("shapes").size(); ++t) {
        json& shape = entry.at("shapes")[t];
        if (!shape.empty()) shape[0] = shape[0].get<int64_t>() + shapes[t][0].get<int64_t>();
      }
    }
}

json merged_layers(const std::vector<ShardRun>& shards) {
  std::vector<const ShardRun*> recorded;
  for (const auto& s : shards)
    if (s.recorded()) recorded.push_back(&s);
  if (recorded.empty()) return shards.front().run.manifest.at("layers");
  json layers = recorded.front()->run.manifest.at("layers");
  for (size_t i = 1; i < recorded.size(); ++i)
    add_shapes(layers, recorded[i]->run.manifest.at("layers"), recorded[i]->reduce);
  return layers;
}

}  // namespace

RunManifest merged_manifest(const std::vector<ShardRun>& shards) {
  json m = shards.front().run.manifest;
  json merged_from = json::array(), kept = json::array(), first_nonfinite;
  int64_t batches_before = 0;
  for (const ShardRun& s : shards) {
    merged_from.push_back(s.dir());
    for (int64_t b : s.kept_batches) kept.push_back(batches_before + b);
    const json& nonfinite = s.run.manifest.value("first_nonfinite", json());
    if (first_nonfinite.is_null() && !nonfinite.is_null()) {
      first_nonfinite = nonfinite;
      first_nonfinite["batch"] = batches_before + nonfinite.at("batch").get<int64_t>();
    }
    batches_before += s.batches_formed();
  }
  m["shard"] = nullptr;
  m["merged_from"] = std::move(merged_from);
  m["samples"] = shards.front().total_samples;
  m["batches"] = kept.size();
  m["kept_batches"] = std::move(kept);
  m["first_nonfinite"] = std::move(first_nonfinite);
  m["layers"] = merged_layers(shards);
  return {RunKind::recording, std::move(m)};
}

}  // namespace modrec
