#include "report/report_run.h"

#include <cmath>
#include <filesystem>
#include <fstream>

#include "util/error.h"
#include "util/regular_file.h"

namespace modrec {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

Error invalid(const std::string& file, const std::string& what) {
  return Error(Exit::bad_input, what, file,
               "give a directory written by modrec record, check MODEL --out or watch");
}

json read_json(const std::string& file) {
  require_regular_file(file, "recording file");
  std::ifstream in(file);
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw invalid(file, std::string("not JSON: ") + e.what());
  }
}

double number(const json& j, const char* field) {
  const json& v = j.at(field);
  return v.is_null() ? std::nan("") : v.get<double>();
}

void read_stats(ReportRun& run, const std::string& file) {
  const json stats = read_json(file);
  try {
    for (const json& l : stats.at("layers")) {
      ReportLayer layer{l.at("label"), l.at("path"), l.at("type"), {}};
      for (const auto& [name, tensors] : l.at("captures").items())
        layer.captures.emplace_back(name, tensors.get<std::vector<json>>());
      run.layers.push_back(std::move(layer));
    }
  } catch (const json::exception& e) {
    throw invalid(file, e.what());
  }
}

// The last recorded step's rows become the layers; every row's first tensor a series point.
void add_step_row(ReportRun& run, const json& row) {
  const std::string label = row.at("label"), capture = row.at("capture");
  const int64_t step = row.at("step");
  if (row.at("tensor") == 0)
    run.series[label][capture].push_back({step, number(row, "std"), number(row, "abs_max")});
  if (step != run.step) {
    run.step = step;
    run.layers.clear();
  }
  if (run.layers.empty() || run.layers.back().label != label)
    run.layers.push_back({label, row.at("path"), row.at("type"), {}});
  auto& captures = run.layers.back().captures;
  if (captures.empty() || captures.back().first != capture) captures.emplace_back(capture, std::vector<json>{});
  captures.back().second.push_back(row);
}

void read_steps(ReportRun& run, const std::string& file) {
  require_regular_file(file, "recording file");
  std::ifstream in(file);
  std::string line;
  try {
    while (std::getline(in, line))
      if (!line.empty()) add_step_row(run, json::parse(line));
  } catch (const json::exception& e) {
    throw invalid(file, e.what());
  }
  for (const json& loss : run.manifest.value("losses", json::array()))
    run.losses.push_back(loss.is_null() ? std::nan("") : loss.get<double>());
}

}  // namespace

const std::vector<nlohmann::json>* ReportLayer::capture(const std::string& name) const {
  for (const auto& [capture, tensors] : captures)
    if (capture == name) return &tensors;
  return nullptr;
}

ReportRun read_report_run(const std::string& path) {
  if (!fs::is_directory(path)) throw invalid(path, "not a directory");
  ReportRun run{path, "record", json::object(), {}, 0, {}, {}};
  if (fs::exists(path + "/manifest.json")) run.manifest = read_json(path + "/manifest.json");
  if (fs::exists(path + "/steps.jsonl")) {
    run.kind = "watch";
    read_steps(run, path + "/steps.jsonl");
  } else if (fs::exists(path + "/stats.json")) {
    read_stats(run, path + "/stats.json");
  } else {
    throw invalid(path, "neither stats.json nor steps.jsonl is there");
  }
  return run;
}

}  // namespace modrec
