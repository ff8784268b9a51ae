#include "merge/merged_stats.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "merge/combine_rule.h"
#include "model/captures.h"
#include "util/error.h"
#include "util/text.h"

namespace modrec {
namespace {

std::string pair_of(const ShardRun& a, const ShardRun& b) { return a.dir() + " and " + b.dir(); }

std::string described(const RunTensor& t) {
  return (t.name.empty() ? "" : t.name + " ") + t.dtype + " " + shape_text(t.shape);
}

// Whether a tensor of shard b can stand beside (per-sample: after) the same tensor of shard a.
bool same_tensor(const RunTensor& a, const RunTensor& b, bool samples_add) {
  if (a.name != b.name || a.dtype != b.dtype || a.shape.size() != b.shape.size()) return false;
  if (!samples_add || a.shape.empty()) return a.shape == b.shape;
  return std::equal(a.shape.begin() + 1, a.shape.end(), b.shape.begin() + 1);
}

std::optional<std::string> capture_difference(const RunCapture& a, const RunCapture& b) {
  if (a.name != b.name) return "captures " + a.name + " vs " + b.name;
  if (a.tensors.size() != b.tensors.size())
    return a.name + ": " + std::to_string(a.tensors.size()) + " vs " +
           std::to_string(b.tensors.size()) + " tensors";
  for (size_t i = 0; i < a.tensors.size(); ++i)
    if (!same_tensor(a.tensors[i], b.tensors[i], stats_rule(a.name) == StatsRule::merge))
      return a.name + " tensor " + std::to_string(i) + ": " + described(a.tensors[i]) + " vs " +
             described(b.tensors[i]);
  return std::nullopt;
}

std::optional<std::string> layer_difference(const RunLayer& a, const RunLayer& b) {
  const auto named = [](const RunLayer& l) {
    return l.ref.label + " " + l.ref.path + " (" + l.ref.type + ") call " + std::to_string(l.call);
  };
  if (named(a) != named(b)) return named(a) + " vs " + named(b);
  if (a.captures.size() != b.captures.size())
    return a.ref.label + ": " + std::to_string(a.captures.size()) + " vs " +
           std::to_string(b.captures.size()) + " captures";
  for (size_t i = 0; i < a.captures.size(); ++i)
    if (auto d = capture_difference(a.captures[i], b.captures[i])) return a.ref.label + " " + *d;
  return std::nullopt;
}

void check_same_layers(const ShardRun& a, const ShardRun& b) {
  const auto& x = a.run.layers;
  const auto& y = b.run.layers;
  std::optional<std::string> d;
  if (x.size() != y.size())
    d = std::to_string(x.size()) + " vs " + std::to_string(y.size()) + " layers";
  for (size_t i = 0; !d && i < x.size(); ++i) d = layer_difference(x[i], y[i]);
  if (d)
    throw Error(Exit::bad_input, "cannot merge: the recorded layers differ: " + *d, pair_of(a, b),
                "merge shards of one model whose calls do not depend on the data");
}

// param_grad sums the shards' gradients; its statistics need the sum's values.
void check_param_grads_summable(const std::vector<const ShardRun*>& shards) {
  if (shards.size() < 2 || shards[0]->save != SaveFormat::none) return;
  for (const auto& layer : shards[0]->run.layers) {
    const RunCapture* c = layer.capture(capture_name(Capture::param_grad));
    if (c && !c->tensors.empty())
      throw Error(Exit::bad_input,
                  "cannot merge param_grad of layer " + layer.ref.label +
                      ": the runs saved no tensors (--save none), and its statistics need the "
                      "gradient summed over the shards",
                  pair_of(*shards[0], *shards[1]),
                  "record with --save pt or --save npy, or without param_grad");
  }
}

void add_tensor(RunTensor& whole, const RunTensor& part, const std::string& where) {
  try {
    whole.stats.merge(part.stats);
  } catch (const std::invalid_argument& e) {  // histograms of other bin counts
    throw Error(Exit::bad_input, std::string("cannot merge statistics: ") + e.what(), where);
  }
  if (!whole.shape.empty()) whole.shape[0] += part.shape[0];
}

void add_shard(std::vector<RunLayer>& whole, const ShardRun& shard) {
  for (size_t l = 0; l < whole.size(); ++l)
    for (size_t c = 0; c < whole[l].captures.size(); ++c) {
      RunCapture& capture = whole[l].captures[c];
      if (stats_rule(capture.name) != StatsRule::merge) continue;
      const auto& part = shard.run.layers[l].captures[c].tensors;
      for (size_t t = 0; t < capture.tensors.size(); ++t)
        add_tensor(capture.tensors[t], part[t], shard.dir() + ", layer " + whole[l].ref.label);
    }
}

}  // namespace

std::vector<RunLayer> merge_stats(const std::vector<const ShardRun*>& shards) {
  if (shards.empty()) return {};
  for (size_t s = 1; s < shards.size(); ++s) check_same_layers(*shards[0], *shards[s]);
  check_param_grads_summable(shards);
  std::vector<RunLayer> whole = shards[0]->run.layers;
  for (auto& layer : whole)
    for (auto& capture : layer.captures) capture.files.clear();
  for (size_t s = 1; s < shards.size(); ++s) add_shard(whole, *shards[s]);
  return whole;
}

}  // namespace modrec
