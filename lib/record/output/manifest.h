// manifest.json of a recording directory (format: docs/run-dir.md): what was run (model, inputs,
// options, batches) and, per recorded layer, its captures' files, shapes and dtypes.
#pragma once
#include <optional>
#include <vector>

#include "arguments/input_options.h"
#include "load/model_options.h"
#include "record/accumulate/layer_recording.h"
#include "record/collect/nonfinite.h"
#include "record/record_options.h"
#include "rundir/run_manifest.h"
#include "arguments/input_batches.h"

namespace modrec {

struct RecordManifest {
  const ModelOptions& model;
  const InputOptions& inputs;
  const InputBatches& batches_run;  // the inputs' sources, the --shard's range
  const RecordOptions& options;
  const std::vector<int64_t>& batches;  // the numbers of the batches recorded (--when)
  const std::optional<FirstNonFinite>& first_nonfinite;  // --when nonfinite
  const std::vector<LayerRecording>& layers;             // their files written (write_tensor_files)
  const std::optional<MeasuredMemory>& memory;           // --columns saved_bytes,peak_bytes
};

// A recording's manifest (RunKind::recording).
RunManifest record_manifest(const RecordManifest& run);

}  // namespace modrec
