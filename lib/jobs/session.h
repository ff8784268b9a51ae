// A loaded, instrumented model and its input sources: the start of every job that runs a model.
#pragma once
#include <memory>

#include "instrument/instrumented_model.h"
#include "load/load_options.h"
#include "record/record_options.h"
#include "tensors/input_batches.h"
#include "util/path_overlap.h"

namespace modrec {

struct Session {
  std::unique_ptr<InstrumentedModel> model;  // open_model's: TorchScript or torch.export
  Signature signature;                       // forward's arguments
  ForwardArguments inputs;  // bound to them (empty without an input), read when batches are taken
  at::Device device = at::kCPU;

  // The run's batches over the inputs (--batch-size, --shard); `targets` one row per sample.
  InputBatches batches(const InputOptions& options, int64_t batch_size,
                       const std::string& targets_file = "") const;
  // The inputs whole, on the device, and the bytes of the positional tensors (torchinfo's
  // input_data; tensors bound by name are its keyword arguments): one pass (summary, graph).
  std::vector<c10::IValue> whole_inputs(int64_t* bytes = nullptr) const;
};

Session open_session(const ModelOptions& model, const InputOptions& inputs,
                     const InstrumentOptions& instrument = {});

// The files a run of the model reads, with their flags: the model, --input sources, and the
// recording's --grad, --targets and --edit replace:FILE (refuse_output_over_inputs).
std::vector<FlagPath> paths_read(const ModelOptions& model, const InputOptions& inputs,
                                 const RecordOptions& record);

}  // namespace modrec
