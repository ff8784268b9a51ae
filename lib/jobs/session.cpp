#include "jobs/session.h"

#include <ATen/Parallel.h>
#include <torch/cuda.h>

#include <thread>

#include "instrument/open_model.h"
#include "tensors/input_spec.h"
#include "tensors/sample_source.h"
#include "util/error.h"

namespace modrec {
namespace {

// LibTorch's CUDA build loads without a GPU or driver and reports no device then.
at::Device torch_device(Device device) {
  if (device == Device::cpu) return at::kCPU;
  if (torch::cuda::is_available()) return at::kCUDA;
  throw Error(Exit::usage, "no CUDA GPU is visible to LibTorch on this machine", "--device cuda",
              "run on a machine with an NVIDIA GPU and its driver, or use --device cpu");
}

void set_threads(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
}

std::vector<SourcePtr> input_sources(const InputOptions& options) {
  if (!options.files.empty() && !options.sizes.empty())
    throw Error(Exit::usage, "--input and --input-size cannot be combined", "--input-size",
                "give the inputs either as files or as shapes");
  std::vector<SourcePtr> sources;
  for (const auto& file : options.files)
    for (auto& s : open_input(file)) sources.push_back(std::move(s));
  std::vector<InputSpec> specs;
  for (const auto& size : options.sizes) specs.push_back(parse_input_spec(size));
  for (auto& t : random_inputs(specs, options.seed, options.high))
    sources.push_back(memory_source(t));
  return sources;
}

// --targets: one source of one tensor.
SourcePtr open_targets(const std::string& path) {
  if (path.empty()) return nullptr;
  std::vector<SourcePtr> sources = open_input(path);
  if (sources.size() != 1)
    throw Error(Exit::bad_input, "expected one tensor of targets", path,
                "save the targets with torch.save(t, FILE), one row per input sample");
  return sources[0];
}

}  // namespace

InputBatches Session::batches(const InputOptions& options, int64_t batch_size,
                              const std::string& targets_file) const {
  return InputBatches(inputs, open_targets(targets_file), batch_size, options.shard, device,
                      targets_file);
}

std::vector<c10::IValue> Session::whole_inputs(int64_t* bytes) const {
  std::vector<c10::IValue> values =
      InputBatches(inputs, nullptr, 0, std::nullopt, device).get(0).inputs;
  if (bytes) {
    *bytes = 0;
    for (const auto& v : values) *bytes += static_cast<int64_t>(v.toTensor().nbytes());
  }
  return values;
}

Session open_session(const ModelOptions& model, const InputOptions& inputs,
                     const InstrumentOptions& instrument) {
  const at::Device device = torch_device(model.device);
  set_threads(model.threads);
  auto sources = input_sources(inputs);  // bad inputs fail before the slower model load
  Session session{open_model(model.path, instrument), std::move(sources), device};
  if (!device.is_cpu()) session.model->to(device);
  session.model->train(model.mode == Mode::train);
  return session;
}

std::vector<FlagPath> paths_read(const ModelOptions& model, const InputOptions& inputs,
                                 const RecordOptions& record) {
  std::vector<FlagPath> paths = flag_paths(inputs.files, "--input");
  paths.insert(
      paths.end(),
      {{model.path, "MODEL"}, {record.grad_file, "--grad"}, {record.targets_file, "--targets"}});
  for (const auto& edit : record.edits.specs)
    if (edit.op.kind == EditKind::replace) paths.push_back({edit.op.file, "--edit"});
  return paths;
}

}  // namespace modrec
