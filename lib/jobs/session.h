// A loaded, instrumented model and its input sources: the start of every job that runs a model,
// whatever open_model.h read (a TorchScript file, a .pt2 archive, an AOTInductor package, an
// ExecuTorch .pte). A checkpoint runs nothing: its jobs read it with checkpoint/ instead.
#pragma once
#include <memory>

#include "instrument/instrumented_model.h"
#include "files/file_kind.h"
#include "arguments/input_options.h"
#include "load/model_options.h"
#include "record/record_options.h"
#include "arguments/input_batches.h"
#include "util/error.h"
#include "util/log.h"
#include "util/path_overlap.h"

namespace modrec {

struct Session {
  std::unique_ptr<InstrumentedModel> model;  // open_model's: .pt, .pt2, AOTInductor, .pte
  Signature signature;                       // forward's arguments
  ForwardArguments inputs;  // bound to them (empty without an input), read when batches are taken
  at::Device device = at::kCPU;  // the model's and its inputs': meta with Weights::meta
  FileInfo file;                 // the model file as opened: read_weights reads on through it
  InstrumentOptions instrument;  // as the model was opened with

  // The model again, its weights read, on `options`' device, in its mode (after a pass on the
  // meta device failed).
  void read_weights(const ModelOptions& options);

  // The run's batches over the inputs (--batch-size, --shard); `targets` one row per sample.
  InputBatches batches(const InputOptions& options, int64_t batch_size,
                       const std::string& targets_file = "") const;
  // The inputs whole, on the device: one pass (summary, graph).
  std::vector<c10::IValue> whole_inputs() const;
  // The bytes of `values`' (whole_inputs') tensors that torchinfo counts as "Input size": the
  // positional ones (its input_data; tensors bound by name are its keyword arguments), or, for
  // a root called with keyword inputs only (`keyword_root`: torchinfo's input_data a dict,
  // model(**input_data)), every one.
  int64_t input_bytes(const std::vector<c10::IValue>& values, bool keyword_root) const;
};

// The model file is opened and read once: its kind told, its directory read, the model loaded
// with its weights as `weights` says, its format given model.formats. `file`: inspect_file's of the
// model, when the job looked.
Session open_session(const ModelOptions& model, const InputOptions& inputs,
                     const InstrumentOptions& instrument = {}, Weights weights = Weights::read,
                     std::optional<FileInfo> file = std::nullopt);

// A pass that needs shapes only (summary's) on a session opened with Weights::meta runs on the
// meta device: no weight read, no value computed. An operator without a meta kernel, or a graph
// that needs a value (.item(), a branch on a tensor), fails there; the session then reads its
// weights and `pass` runs again, saying so when it succeeds (when it fails too, its own error is
// the one line).
template <class Pass>
auto pass_on_shapes(Session& session, const ModelOptions& model, Pass&& pass) -> decltype(pass()) {
  if (!session.device.is_meta()) return pass();
  try {
    return pass();
  } catch (const Error& e) {
    if (e.code() != Exit::model_failed) throw;
    session.read_weights(model);
    auto result = pass();
    // LibTorch's "no Meta kernel" goes on with four sentences of advice for torch.compile users
    const std::string why = first_line(e.what());
    log::warn(model.path, ": the pass on the meta device (shapes without weights) failed (",
              why.substr(0, why.find(". ")), ", at ", e.where(), "): it ran on the weights");
    return result;
  }
}

// The files a run of the model reads, with their flags: the model, --input sources, and the
// recording's --grad, --targets and --edit replace:FILE (refuse_output_over_inputs).
std::vector<FlagPath> paths_read(const ModelOptions& model, const InputOptions& inputs,
                                 const RecordOptions& record);

}  // namespace modrec
