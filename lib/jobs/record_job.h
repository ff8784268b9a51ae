// `modrec record`: forward and backward over a TorchScript model or .pt2 archive, selected layer
// calls to disk.
#pragma once
#include <functional>
#include <ostream>

#include "arguments/input_options.h"
#include "load/model_options.h"
#include "record/record_options.h"
#include "tensorboard/tensorboard_options.h"

namespace modrec {

// --format: what record prints on stdout: a line of text (to stderr, by the CLI) or the manifest.
enum class RecordFormat { text, json };
const EnumNames<RecordFormat>& record_format_names();

struct RecordJob {
  ModelOptions model;
  InputOptions inputs;
  RecordOptions record;
  std::string out = "modrec-out";
  bool force = false;
  TensorBoardOptions tensorboard;                     // --tensorboard, --tensorboard-run
  RecordFormat format = RecordFormat::text;           // --format
  std::function<void(int done, int total)> progress;  // after each batch
};

void run_record_job(const RecordJob& job, std::ostream& out);

}  // namespace modrec
