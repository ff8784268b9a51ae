// `modrec summary`: the torchinfo table of a TorchScript model.
#pragma once
#include <ostream>

#include "jobs/job_options.h"
#include "summary/options.h"

namespace modrec {

struct SummaryJob {
  ModelOptions model;
  InputOptions inputs;
  SummaryOptions summary;
  bool grad = false;             // --grad: the pass runs with autograd on
  std::string format = "table";  // table|json|csv|markdown
};

void run_summary_job(const SummaryJob& job, std::ostream& out);

}  // namespace modrec
