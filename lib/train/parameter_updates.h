// watch --capture update: what one optimizer step changed in each recorded module's own
// parameters, and that change's size relative to the parameter.
#pragma once
#include <string>
#include <vector>

#include "instrument/instrumented_model.h"
#include "record/accumulate/layer_recording.h"
#include "tensor_stats/tensor_stats.h"

namespace modrec {

struct ParameterUpdate {
  std::string label;     // the module's first recorded call
  std::string name;      // the parameter's, in the module
  TensorSummary change;  // after - before
  double ratio = 0;      // ||after - before|| / ||before|| (L2; inf or NaN for a zero parameter)
};

// Kept across steps: each parameter's copy goes to the same buffer every step, and the change is
// summarized without being formed (summarize_difference), so a watch step allocates (and
// page-faults in) no parameter-sized tensors.
class ParameterUpdates {
 public:
  // Before the step: copies the own parameters of every module that `layers` recorded a call of.
  void snapshot(const InstrumentedModel& model, const std::vector<LayerRecording>& layers);

  // After the step: each copied parameter's change, in the layers' order.
  std::vector<ParameterUpdate> changes();

 private:
  struct Before {
    std::string label, name;
    at::Tensor param, value;  // the live parameter, its value before the step
    double norm;              // ||value|| when the param capture gave it, else NaN
  };
  std::vector<Before> before_;
};

}  // namespace modrec
