// What the report's page shows of one run, as the JSON document its script (report.js) draws
// every chart, table and statistic from (torch-free): the data is sent once, in the form
// rundir/ read it, so a page of a 177-call ResNet-50 stays small (docs/run-dir.md: the fields).
#pragma once
#include <nlohmann/json.hpp>

#include "report/report_run.h"

namespace modrec {

// A layer is flagged dead when its output's zero fraction or std says nothing flows through it.
struct DeadLayerRule {
  double zero_fraction = 0.99;  // at least
  double min_std = 1e-6;        // at most
};

// {"path", "kind", "model", "steps_run", "step", "dead_rule", "heatmap_capture",
//  "layers": [{"label", "path", "type", "call", "nonfinite", "dead",
//              "captures": [{"name", "tensors": [{"index", "name", "shape", "dtype",
//                            "stats": RunningStats::to_json() without the histogram,
//                            "histogram": {"range": R, "counts", "at_top"}}]}]}],
//  "losses": [loss or null per step run],
//  "series": [{"capture", "lines": [{"label", "steps": [...], "std": [...]}]}]}
// Layers in call order; a histogram's edges are its bins spread evenly over [-R, R].
nlohmann::json report_data(const ReportRun& run, const DeadLayerRule& rule = {});

}  // namespace modrec
