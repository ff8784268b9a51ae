// `modrec report`: the HTML page of one run directory, or of two side by side.
#pragma once
#include <string>
#include <vector>

namespace modrec {

struct ReportJob {
  std::vector<std::string> runs;  // one or two run directories
  std::string out = "report.html";
  bool force = false;  // replace an existing `out`
};

void run_report_job(const ReportJob& job);

}  // namespace modrec
