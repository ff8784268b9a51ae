// watch's per-step series, DIR/steps.csv and DIR/steps.jsonl (docs/run-dir.md): one row per
// recorded step, layer, capture and tensor, with its statistics and the step's loss. The one
// writer (train's StepSeries writes through it) and reader (report) of both files (torch-free).
#pragma once
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "model/layer_match.h"
#include "rundir/run_dir.h"

namespace modrec {

struct StepRow {
  int64_t step = 0;
  double loss = std::nan("");  // the step's; NaN when it was not finite
  LayerRef layer;
  std::string capture;  // a capture's name, or "update": a parameter's change by the step
  RunTensor tensor;     // index, name (a parameter's), place, shape, dtype, statistics
  double update_ratio = std::nan("");  // update rows only
};

class StepFiles {
 public:
  // Creates both files under `dir`, the CSV's header written. Error(write_failed) when it cannot.
  explicit StepFiles(const std::string& dir);
  void write(const StepRow& row);
  // Flushes both; Error(write_failed) when a row could not be written.
  void flush();

 private:
  std::string dir_;
  std::ofstream csv_, jsonl_;
};

// DIR/steps.jsonl's rows, in file order. Error(bad_input) naming the file when it is missing or a
// row is not in the format.
std::vector<StepRow> read_step_rows(const std::string& dir);

}  // namespace modrec
