#include "report/report_run.h"

#include <filesystem>

#include "rundir/step_rows.h"
#include "util/error.h"

namespace modrec {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

Error invalid(const std::string& file, const std::string& what) {
  return Error(Exit::bad_input, what, file,
               "give a directory written by modrec record, check MODEL --out or watch");
}

// The last recorded step's rows become the layers; every row's first tensor a series point.
void add_step_row(ReportRun& run, StepRow row) {
  const std::string& label = row.layer.label;
  if (row.tensor.index == 0)
    run.series[label][row.capture].push_back(
        {row.step, row.tensor.stats.std(), row.tensor.stats.abs_max()});
  if (row.step != run.step) {
    run.step = row.step;
    run.layers.clear();
  }
  if (run.layers.empty() || run.layers.back().ref.label != label)
    run.layers.push_back({row.layer, 1, -1, {}});
  auto& captures = run.layers.back().captures;
  if (captures.empty() || captures.back().name != row.capture)
    captures.push_back({row.capture, {}, {}});
  captures.back().tensors.push_back(std::move(row.tensor));
}

void read_steps(ReportRun& run) {
  for (StepRow& row : read_step_rows(run.path)) add_step_row(run, std::move(row));
  for (const json& loss : run.manifest.value("losses", json::array()))
    run.losses.push_back(loss.is_null() ? std::nan("") : loss.get<double>());
}

}  // namespace

ReportRun read_report_run(const std::string& path) {
  if (!fs::is_directory(path)) throw invalid(path, "not a directory");
  std::optional<RunManifest> manifest = read_run_manifest(path);
  ReportRun run{path, manifest ? manifest->kind : RunKind::recording, json::object(), {}, 0, {},
                {}};
  if (run.kind == RunKind::watch) {
    run.manifest = std::move(manifest->fields);
    read_steps(run);
  } else {
    RunDir dir = read_run_dir(path);
    run.layers = std::move(dir.layers);
    if (!dir.manifest.is_null()) run.manifest = std::move(dir.manifest);
  }
  return run;
}

}  // namespace modrec
