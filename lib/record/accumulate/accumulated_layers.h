// The recorded layers of a run, one per label: each pass's captured calls merged in, batch after
// batch, in the order the layers were first called.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "instrument/instrumented_model.h"
#include "model/call_trace.h"
#include "record/accumulate/layer_recording.h"
#include "record/record_options.h"
#include "record/collect/recorder.h"

namespace modrec {

// The facts of a pass's calls that name its layers.
struct PassCalls {
  const std::vector<std::string>& labels;  // by call index
  const std::vector<int>& numbers;         // which call of its module, from 1
  const CallTrace& trace;
};

class AccumulatedLayers {
 public:
  // Tensor files go under `run_dir`/tensors.
  AccumulatedLayers(const ModuleTree& tree, CaptureSet captures, SaveFormat save, Reduce reduce,
                    std::string run_dir)
      : tree_(tree),
        captures_(captures),
        save_(save),
        reduce_(reduce),
        run_dir_(std::move(run_dir)) {}

  // Before any merge: the captures recorded become `captures` (record's forward only, once the
  // first pass showed no gradient to record).
  void set_captures(CaptureSet captures) { captures_ = captures; }

  // Adds each captured call's values to its layer's sinks (statistics, spooled tensors).
  void merge(std::deque<CapturedCall>& captured, const PassCalls& calls);

  // With param_grad, after each kept batch's backward: adds the recorded modules' parameter
  // gradients of that batch (the model's .grad, cleared before each pass) to their sums. A
  // parameter in `blocked` (its gradient would pass through operators without a derivative:
  // blocked_parameters) gets none, from then on; the capture lists it under no_gradient.
  void add_param_grads(const InstrumentedModel& model, const BlockedParameters& blocked);

  // With param or param_grad, after the last batch: each recorded module's own parameters and
  // their gradients (summed over its calls and the kept batches), under its first recorded
  // call's label. `calls`: a pass's, to name the calls a gradient is summed over. `file`: where
  // to spool the tensors when saving.
  void merge_params(const InstrumentedModel& model, const PassCalls& calls, BatchFile* file);

  std::vector<LayerRecording>& layers() { return layers_; }
  const std::vector<LayerRecording>& layers() const { return layers_; }

 private:
  LayerRecording& layer_for(const std::string& label, int module, int number, bool traced_away);
  void refuse(int module, const std::string& name, const std::vector<std::string>& through);
  bool is_refused(int module, const std::string& name) const;

  const ModuleTree& tree_;
  CaptureSet captures_;
  SaveFormat save_;
  Reduce reduce_;
  std::string run_dir_;
  std::vector<LayerRecording> layers_;
  std::map<std::string, size_t> by_label_;
  std::map<int, size_t> param_owner_;  // module -> the layer its parameters are recorded under
  std::map<int, std::vector<std::pair<std::string, at::Tensor>>> grad_sums_;  // by module
  std::map<int, std::vector<NoGradient>> refused_;  // by module: its parameters' refused grads
};

}  // namespace modrec
