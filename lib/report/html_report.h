// `modrec report`: one self-contained HTML page (inline CSS and script, SVG charts drawn here, no
// network) of a run directory, or of two side by side (torch-free).
#pragma once
#include <string>
#include <vector>

#include "report/report_run.h"

namespace modrec {

// A layer is flagged dead when its output's zero fraction or std says nothing flows through it.
struct DeadLayerRule {
  double zero_fraction = 0.99;  // at least
  double min_std = 1e-6;        // at most
};

std::string html_report(const std::vector<ReportRun>& runs, const DeadLayerRule& dead = {});

}  // namespace modrec
