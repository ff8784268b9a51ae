#include "jobs/session.h"

#include <ATen/Parallel.h>
#include <torch/cuda.h>

#include <thread>

#include "instrument/open_model.h"
#include "load/operator_libraries.h"
#include "ops/meta/meta_kernels.h"
#include "arguments/forward_schema.h"
#include "util/error.h"
#include "util/package_half.h"
#include "util/progress.h"

namespace modrec {
namespace {

// LibTorch's CUDA build loads without a GPU or driver and reports no device then.
at::Device torch_device(Device device) {
  if (device == Device::cpu) return at::kCPU;
  if (auto why = load_cuda_backend())
    throw Error(Exit::usage, "LibTorch's CUDA backend cannot be loaded: " + first_line(*why),
                "--device cuda",
                "repair the CUDA libraries of the torch installation, or use --device cpu");
  if (torch::cuda::is_available()) return at::kCUDA;
  throw Error(Exit::usage, "no CUDA GPU is visible to LibTorch on this machine", "--device cuda",
              "run on a machine with an NVIDIA GPU and its driver, or use --device cpu");
}

void set_threads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
}

// `model` on `device` (its tensors moved there from where they were loaded, and the devices its
// code names), in `options`' mode.
void place(InstrumentedModel& model, const at::Device& device, const ModelOptions& options) {
  model.to(device);
  model.train(options.mode == Mode::train);
}

// The dtype of the model's first floating-point parameter; nullopt without one.
std::optional<at::ScalarType> floating_dtype(const InstrumentedModel& model) {
  for (const at::Tensor& p : model.parameters())
    if (p.is_floating_point()) return p.scalar_type();
  return std::nullopt;
}

}  // namespace

InputBatches Session::batches(const InputOptions& options, int64_t batch_size,
                              const std::string& targets_file) const {
  InputBatches out(inputs, open_targets(targets_file), batch_size, options.shard, device,
                   targets_file);
  if (options.in_model_dtype) out.cast_floating_to(floating_dtype(*model));
  return out;
}

std::vector<c10::IValue> Session::whole_inputs() const {
  return InputBatches(inputs, nullptr, 0, std::nullopt, device).get(0).inputs;
}

int64_t Session::input_bytes(const std::vector<c10::IValue>& values, bool keyword_root) const {
  int64_t bytes = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (!inputs[i].positional && !keyword_root) continue;
    if (values[i].isTensorList())
      for (const at::Tensor& t : values[i].toTensorList().vec())
        bytes += static_cast<int64_t>(t.nbytes());
    else if (values[i].isTensor())
      bytes += static_cast<int64_t>(values[i].toTensor().nbytes());
  }
  return bytes;
}

void Session::read_weights(const ModelOptions& options) {
  const progress::Phase loading("loading " + options.path + " with its weights");
  model = open_model(options.path, file, Weights::read, options.formats, instrument);
  device = torch_device(options.device);
  place(*model, device, options);
}

namespace {

// A model LibTorch cannot load onto the meta device (a quantized one: no QuantizedMeta kernels)
// is read with its weights, and `weights` says which it was; when that fails too, its own error
// is the one line.
std::unique_ptr<InstrumentedModel> open_without_weights_or_with(const ModelOptions& model,
                                                                const FileInfo& file,
                                                                Weights& weights,
                                                                const InstrumentOptions& options) {
  const auto open = [&](Weights w) {
    return open_model(model.path, file, w, model.formats, options);
  };
  if (weights != Weights::meta) return open(weights);
  try {
    return open(weights);
  } catch (const Error& e) {
    if (e.code() != Exit::bad_input) throw;
    auto opened = open(Weights::read);
    const std::string why = first_line(e.what());  // LibTorch's first sentence says enough
    log::warn(model.path, ": the model cannot be read without its weights (",
              why.substr(0, why.find(". ")), "): it was read with them");
    weights = Weights::read;
    return opened;
  }
}

}  // namespace

Session open_session(const ModelOptions& model, const InputOptions& inputs,
                     const InstrumentOptions& instrument, Weights weights,
                     std::optional<FileInfo> inspected) {
  const at::Device device = torch_device(model.device);
  set_threads(model.threads);
  const OpenedInputs opened(inputs);  // bad inputs fail before the slower model load
  for (const auto& library : model.libraries) load_operator_library(library);
  if (weights == Weights::meta) register_meta_kernels();
  FileInfo file = inspected ? std::move(*inspected) : inspect_file(model.path);
  const progress::Phase loading("loading " + model.path);  // until the model is placed
  std::unique_ptr<InstrumentedModel> instrumented =
      open_without_weights_or_with(model, file, weights, instrument);
  const ForwardSchema schema(instrumented->forward_arguments());
  ForwardArguments bound = inputs.given() ? opened.bind(schema) : ForwardArguments{};
  Session session{
      std::move(instrumented), schema.signature(),
      std::move(bound),        weights == Weights::meta ? at::Device(at::kMeta) : device,
      std::move(file),         instrument};
  place(*session.model, session.device, model);
  return session;
}

std::vector<FlagPath> paths_read(const ModelOptions& model, const InputOptions& inputs,
                                 const RecordOptions& record) {
  std::vector<FlagPath> paths = flag_paths(inputs.all_files(), "--input");
  paths.insert(paths.end(), {{model_file(model.path), "MODEL"},
                             {model.formats.etrecord, "--etrecord"},
                             {record.grad_file, "--grad"},
                             {record.targets_file, "--targets"}});
  for (const auto& edit : record.edits.specs)
    if (edit.op.kind == EditKind::replace) paths.push_back({edit.op.file, "--edit"});
  return paths;
}

}  // namespace modrec
