#include "report/report_data.h"

#include <cmath>

namespace modrec {
namespace {

using nlohmann::json;

bool nonfinite(const RunTensor& t) { return t.stats.nan_count() + t.stats.inf_count() > 0; }

// NaN compares false: an undefined statistic never makes a layer dead.
bool dead(const RunTensor& t, const DeadLayerRule& rule) {
  return t.stats.zero_fraction() >= rule.zero_fraction || t.stats.std() <= rule.min_std;
}

// The edges are left out: R and the bin count give them, and they were most of the old page.
json tensor_json(const RunTensor& t) {
  json stats = t.stats.to_json();
  const json histogram = stats.at("histogram");
  stats.erase("histogram");
  const auto& edges = histogram.at("edges");
  return {{"index", t.index},
          {"name", t.name},
          {"at", index_path(t.at)},
          {"shape", t.shape},
          {"dtype", t.dtype},
          {"stats", std::move(stats)},
          {"histogram",
           {{"range", edges.empty() ? 0.0 : edges.back().get<double>()},
            {"counts", histogram.at("counts")},
            {"at_top", histogram.at("at_top")}}}};
}

json layer_json(const RunLayer& layer, const DeadLayerRule& rule) {
  json captures = json::array();
  bool bad = false;
  for (const RunCapture& c : layer.captures) {
    json tensors = json::array();
    for (const RunTensor& t : c.tensors) {
      bad = bad || nonfinite(t);
      tensors.push_back(tensor_json(t));
    }
    captures.push_back({{"name", c.name}, {"tensors", std::move(tensors)}});
  }
  const RunCapture* out = layer.capture("output");
  const bool is_dead = out && !out->tensors.empty() && dead(out->tensors.front(), rule);
  json j{{"label", layer.ref.label},
         {"path", layer.ref.path},
         {"type", layer.ref.type},
         {"call", layer.call},
         {"nonfinite", bad},
         {"dead", is_dead},
         {"captures", std::move(captures)}};
  if (layer.memory) j["memory"] = *layer.memory;  // record --columns saved_bytes,peak_bytes
  return j;
}

// The capture whose histograms the heatmap shows: the first of these any layer has.
std::string heatmap_capture(const ReportRun& run) {
  for (const char* c : {"output", "grad_output", "input", "param"})
    for (const auto& layer : run.layers)
      if (layer.capture(c)) return c;
  return "output";
}

// watch: per capture, one line per layer in call order; NaN (no std) is written as null.
json series_json(const ReportRun& run) {
  json series = json::array();
  for (const char* capture : {"output", "grad_output", "param_grad", "update"}) {
    json lines = json::array();
    for (const RunLayer& layer : run.layers) {
      const auto found = run.series.find(layer.ref.label);
      if (found == run.series.end() || !found->second.count(capture)) continue;
      json steps = json::array(), std = json::array();
      for (const StepPoint& p : found->second.at(capture)) {
        steps.push_back(p.step);
        std.push_back(p.std);
      }
      lines.push_back({{"label", layer.ref.label}, {"steps", steps}, {"std", std}});
    }
    if (!lines.empty()) series.push_back({{"capture", capture}, {"lines", std::move(lines)}});
  }
  return series;
}

}  // namespace

json report_data(const ReportRun& run, const DeadLayerRule& rule) {
  json layers = json::array();
  for (const RunLayer& layer : run.layers) layers.push_back(layer_json(layer, rule));
  json losses = json::array();
  for (double loss : run.losses) losses.push_back(loss);
  const json& model = run.manifest.contains("model") ? run.manifest["model"] : json::object();
  return {{"path", run.path},
          {"kind", run.kind == RunKind::watch ? "watch" : "record"},
          {"model", model.value("path", "")},
          {"steps_run", run.losses.size()},
          {"step", run.step},
          {"dead_rule", {{"zero_fraction", rule.zero_fraction}, {"min_std", rule.min_std}}},
          {"heatmap_capture", heatmap_capture(run)},
          {"layers", std::move(layers)},
          {"losses", std::move(losses)},
          {"series", series_json(run)}};
}

}  // namespace modrec
