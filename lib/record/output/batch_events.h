// record --tensorboard: each kept batch's captures as TensorBoard scalars and histograms at the
// batch's number (tensorboard/event_file.h: std, abs_max, mean, non-finite count, histogram),
// under the tags watch uses for its steps.
#pragma once
#include <deque>
#include <vector>

#include "record/accumulate/accumulated_layers.h"
#include "record/accumulate/layer_recording.h"
#include "record/collect/recorder.h"
#include "tensorboard/event_file.h"

namespace modrec {

// One batch's captured calls: the values of each call (input .. grad_output), that batch's own
// statistics, not the run's so far.
void write_batch_events(EventFile& events, int64_t batch, const std::deque<CapturedCall>& captured,
                        const PassCalls& calls, const ModuleTree& tree, CaptureSet captures);

// The module captures (param, and param_grad summed over the kept batches) of the run's layers,
// once, at the last kept batch's number.
void write_module_events(EventFile& events, int64_t batch,
                         const std::vector<LayerRecording>& layers);

}  // namespace modrec
