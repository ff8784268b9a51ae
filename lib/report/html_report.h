// `modrec report`: one self-contained HTML page (inline CSS and script, no network) of a run
// directory, or of two side by side (torch-free). The runs travel once, as JSON
// (report_data.h); the page's own script (report.js) draws the charts to the page's width, the
// layer table and each layer's statistics from it.
#pragma once
#include <string>
#include <vector>

#include "report/report_data.h"
#include "report/report_run.h"

namespace modrec {

std::string html_report(const std::vector<ReportRun>& runs, const DeadLayerRule& dead = {});

}  // namespace modrec
