// `modrec record`: forward and backward over a TorchScript model, selected layer calls to disk.
#pragma once
#include <functional>
#include <ostream>

#include "load/load_options.h"
#include "record/record_options.h"

namespace modrec {

struct RecordJob {
  ModelOptions model;
  InputOptions inputs;
  RecordOptions record;
  std::string out = "modrec-out";
  bool force = false;
  bool print_manifest = false;  // --format json
  std::function<void(int done, int total)> progress;  // after each batch
};

void run_record_job(const RecordJob& job, std::ostream& out);

}  // namespace modrec
