// `modrec record`: forward and backward over a TorchScript model, selected layer calls to disk.
#pragma once
#include <functional>
#include <ostream>

#include "jobs/job_options.h"

namespace modrec {

struct RecordJob {
  ModelOptions model;
  InputOptions inputs;
  std::string layers;                 // --layers selectors
  std::vector<std::string> captures;  // --capture; empty: output,grad_output (output alone
                                      // with --no-backward)
  std::string loss = "sum";           // sum|mean of the first output
  std::string grad_file;              // --grad: d(loss)/d(first output)
  bool backward = true;
  std::string save = "pt";            // pt|npy|none
  int64_t batch_size = 0;             // 0: the whole input at once
  std::string reduce = "none";        // none|sum|mean
  std::string out = "modrec-out";
  bool force = false;
  bool print_manifest = false;        // --format json
  std::function<void(int done, int total)> progress;  // after each batch
};

void run_record_job(const RecordJob& job, std::ostream& out);

}  // namespace modrec
