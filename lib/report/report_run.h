// A run directory read for `modrec report` (torch-free): the layers' statistics of a recording
// (stats.json of record or check MODEL, read by rundir/run_dir.h) or of a watch run's last
// recorded step, and a watch run's per-step series (steps.jsonl). Format: docs/run-dir.md.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rundir/run_dir.h"
#include "rundir/run_manifest.h"

namespace modrec {

// One per-step value of a layer's capture (its first tensor), watch only.
struct StepPoint {
  int64_t step;
  double std, abs_max;
};

struct ReportRun {
  std::string path;
  RunKind kind;                  // as the manifest states (none: a recording)
  nlohmann::json manifest;       // {} when absent
  std::vector<RunLayer> layers;  // in call order, captures in the contract's order
  int64_t step = 0;              // watch: the step `layers` shows (the last recorded)
  // watch: label -> capture -> points over the recorded steps
  std::map<std::string, std::map<std::string, std::vector<StepPoint>>> series;
  std::vector<double> losses;  // watch: per step run
};

// The run's kind from its manifest (a directory without one is a recording); throws
// Error(bad_input, ..., <file>) when the files of that kind are missing or not in the format.
ReportRun read_report_run(const std::string& path);

}  // namespace modrec
