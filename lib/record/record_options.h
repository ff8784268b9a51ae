// What `record` is asked to do, as types: the CLI (or a C++ caller) parses each flag once into
// these, and the record stage reads them (torch-free).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "edit/edit_spec.h"
#include "model/captures.h"
#include "model/layer_match.h"
#include "rundir/run_scope.h"
#include "record/when.h"
#include "summary/options.h"
#include "pass/loss.h"
#include "rundir/saved_tensors.h"
#include "util/enum_names.h"

namespace modrec {

struct RecordOptions {
  LayerMatcher layers;                 // --layers selectors (model/layer_match.h)
  std::optional<CaptureSet> captures;  // --capture; unset: output,grad_output (output alone
                                       // without backward)
  Loss loss = Loss::sum;
  std::string grad_file;  // --grad: d(loss)/d(first output) instead of the loss
  bool backward = true;   // false: --no-backward
  SaveFormat save = SaveFormat::pt;
  int64_t batch_size = 0;  // 0: the whole input at once
  Reduce reduce = Reduce::none;
  EditOptions edits;            // --edit
  When when;                    // --when
  std::string targets_file;     // --targets: a label per sample, for --when target:K
  std::vector<Column> columns;  // --columns: the memory columns (saved_bytes, peak_bytes)

  // A memory column is asked for: each pass runs under the memory meter (memory/memory_meter.h).
  bool measures_memory() const { return !columns.empty(); }

  // The captures to record. Throws Error(usage) for gradients without backward.
  CaptureSet resolved_captures() const;
  // Throws Error(usage) naming the flag of a combination that cannot work.
  void validate() const;
  // check MODEL and diff MODEL's scope: its layers, and its captures when named, recorded with a
  // backward only when a gradient is among them (a statically quantized model's output has none).
  void narrow_to(const RunScope& scope);
};

}  // namespace modrec
