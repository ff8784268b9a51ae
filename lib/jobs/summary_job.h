// `modrec summary`: the torchinfo table of a TorchScript model or .pt2 archive.
#pragma once
#include <ostream>

#include "edit/edit_spec.h"
#include "arguments/input_options.h"
#include "load/model_options.h"
#include "summary/exports.h"
#include "summary/options.h"

namespace modrec {

struct SummaryJob {
  ModelOptions model;
  InputOptions inputs;
  SummaryOptions summary;
  bool grad = false;  // --grad: the pass runs with autograd on
  EditOptions edits;  // --edit: outputs rewritten as the pass runs
  SummaryFormat format = SummaryFormat::table;
};

void run_summary_job(const SummaryJob& job, std::ostream& out);

}  // namespace modrec
