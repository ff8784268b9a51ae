#include "record/record_options.h"

#include "util/error.h"

namespace modrec {

CaptureSet RecordOptions::resolved_captures() const {
  if (!captures) {
    CaptureSet set;
    set.output = true;
    set.grad_output = backward;
    return set;
  }
  if (captures->any_grad() && !backward)
    throw Error(Exit::usage, "gradients cannot be captured without a backward pass",
                "--no-backward", "drop --no-backward or capture only input,output");
  return *captures;
}

void RecordOptions::narrow_to(const RunScope& scope) {
  layers = scope.layers;
  if (!scope.captures) return;
  captures = scope.captures;
  backward = captures->any_grad();
}

void RecordOptions::validate() const {
  resolved_captures();
  if (!grad_file.empty() && !backward)
    throw Error(Exit::usage, "--grad needs a backward pass", "--grad", "drop --no-backward");
  if (when.kind == When::Kind::target && targets_file.empty())
    throw Error(Exit::usage, "--when target:K needs the samples' labels", "--when",
                "give --targets FILE: a tensor of one label per input sample");
  if (!targets_file.empty() && when.kind != When::Kind::target)
    throw Error(Exit::usage, "--targets is read only by --when target:K", "--targets",
                "add --when target:K or drop --targets");
  for (Column c : columns)
    if (c != Column::saved_bytes && c != Column::peak_bytes)
      throw Error(
          Exit::usage,
          "record measures the memory columns only, not '" + name_of(column_names(), c) + "'",
          "--columns", "valid values are saved_bytes,peak_bytes (summary shows the others)");
  if (batch_size < 0)
    throw Error(Exit::usage, "batch size must be positive", "--batch-size", "use e.g. 8");
}

}  // namespace modrec
