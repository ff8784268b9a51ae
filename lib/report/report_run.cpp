#include "report/report_run.h"

#include <cmath>
#include <filesystem>
#include <fstream>

#include "rundir/run_paths.h"
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

// The last recorded step's rows become the layers; every row's first tensor a series point.
void add_step_row(ReportRun& run, const json& row) {
  const std::string label = row.at("label"), capture = row.at("capture");
  const int64_t step = row.at("step");
  RunTensor tensor = read_run_tensor(row);
  if (tensor.index == 0)
    run.series[label][capture].push_back({step, tensor.stats.std(), tensor.stats.abs_max()});
  if (step != run.step) {
    run.step = step;
    run.layers.clear();
  }
  if (run.layers.empty() || run.layers.back().ref.label != label)
    run.layers.push_back({{label, row.at("path"), row.at("type")}, 1, -1, {}});
  auto& captures = run.layers.back().captures;
  if (captures.empty() || captures.back().name != capture) captures.push_back({capture, {}, {}});
  captures.back().tensors.push_back(std::move(tensor));
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
  } catch (const Error& e) {
    throw invalid(file, e.what());
  }
  for (const json& loss : run.manifest.value("losses", json::array()))
    run.losses.push_back(loss.is_null() ? std::nan("") : loss.get<double>());
}

}  // namespace

ReportRun read_report_run(const std::string& path) {
  if (!fs::is_directory(path)) throw invalid(path, "not a directory");
  ReportRun run{path, "record", json::object(), {}, 0, {}, {}};
  if (fs::exists(run_paths::steps_jsonl(path))) {
    run.kind = "watch";
    if (fs::exists(run_paths::manifest(path)))
      run.manifest = read_run_json(run_paths::manifest(path));
    read_steps(run, run_paths::steps_jsonl(path));
  } else if (fs::exists(run_paths::stats_json(path))) {
    RunDir dir = read_run_dir(path);
    run.layers = std::move(dir.layers);
    if (!dir.manifest.is_null()) run.manifest = std::move(dir.manifest);
  } else {
    throw invalid(path, "neither stats.json nor steps.jsonl is there");
  }
  return run;
}

}  // namespace modrec
