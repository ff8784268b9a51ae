#include "train/watch_manifest.h"

#include <cmath>

#include "load/version.h"
#include "arguments/input_manifest.h"

namespace modrec {
namespace {

nlohmann::json optional_json(const std::optional<uint64_t>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json options_json(const WatchedRun& run) {
  const TrainOptions& t = run.train;
  std::vector<std::string> captures;
  for (Capture c : run.record.resolved_captures().list()) captures.push_back(capture_name(c));
  if (t.update) captures.push_back("update");
  return {
      {"layers", run.record.layers.text()},
      {"capture", captures},
      {"loss", name_of(train_loss_names(), t.loss)},
      {"targets_file",
       t.targets_file.empty() ? nlohmann::json(nullptr) : nlohmann::json(t.targets_file)},
      {"optimizer", name_of(optimizer_names(), t.optimizer)},
      {"lr", t.lr},
      {"momentum", t.momentum},
      {"weight_decay", t.weight_decay},
      {"steps", t.steps},
      {"batch_size", t.batch_size == 0 ? nlohmann::json(nullptr) : nlohmann::json(t.batch_size)},
      {"shuffle", optional_json(t.shuffle)},
      {"every", t.every}};
}

nlohmann::json stopped_json(const std::optional<TrainingStop>& stopped) {
  if (!stopped) return nullptr;
  nlohmann::json out = {{"step", stopped->step}, {"label", nullptr}, {"path", nullptr}};
  if (!stopped->label.empty()) {
    out["label"] = stopped->label;
    out["path"] = stopped->path;
  }
  return out;
}

nlohmann::json sources_json(const InputBatches& data) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& s : data.sources()) out.push_back(source_json(*s));
  return out;
}

nlohmann::json inputs_json(const WatchedRun& run) {
  nlohmann::json out = {{"files", run.inputs.files}, {"sources", sources_json(run.data)}};
  add_arguments_json(out, run.inputs, run.data.arguments());
  return out;
}

}  // namespace

RunManifest watch_manifest(const WatchedRun& run) {
  nlohmann::json losses = nlohmann::json::array();
  for (double loss : run.training.losses())
    losses.push_back(std::isfinite(loss) ? nlohmann::json(loss) : nlohmann::json(nullptr));
  RunManifest manifest =
      new_run_manifest(RunKind::watch, {modrec_version(), libtorch_version(), run.model.path});
  manifest.fields.update({{"command", "watch"},
                          {"inputs", inputs_json(run)},
                          {"shard", shard_json(run.inputs.shard, run.data.range())},
                          {"options", options_json(run)},
                          {"losses", losses},
                          {"recorded_steps", run.training.recorded()},
                          {"stopped", stopped_json(run.stopped)}});
  return manifest;
}

}  // namespace modrec
