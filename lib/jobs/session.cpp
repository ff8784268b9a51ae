#include "jobs/session.h"

#include <ATen/Parallel.h>
#include <torch/cuda.h>

#include <thread>

#include "load/load_model.h"
#include "tensors/input_spec.h"
#include "tensors/read_inputs.h"
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

std::vector<at::Tensor> input_tensors(const InputOptions& options) {
  if (!options.files.empty() && !options.sizes.empty())
    throw Error(Exit::usage, "--input and --input-size cannot be combined", "--input-size",
                "give the inputs either as files or as shapes");
  std::vector<at::Tensor> tensors;
  for (const auto& file : options.files)
    for (auto& t : read_inputs(file)) tensors.push_back(std::move(t));
  std::vector<InputSpec> specs;
  for (const auto& size : options.sizes) specs.push_back(parse_input_spec(size));
  if (!specs.empty()) tensors = random_inputs(specs, options.seed, options.high);
  return tensors;
}

}  // namespace

Session open_session(const ModelOptions& model, const InputOptions& inputs,
                     const InstrumentOptions& instrument) {
  const at::Device device = torch_device(model.device);
  set_threads(model.threads);
  auto tensors = input_tensors(inputs);  // bad inputs fail before the slower model load
  Session session{InstrumentedModel(load_model(model.path), instrument), {}, 0};
  for (auto& t : tensors) {
    session.input_bytes += static_cast<int64_t>(t.nbytes());
    session.inputs.emplace_back(device.is_cpu() ? t : t.to(device));
  }
  if (!device.is_cpu()) session.model.module().to(device);
  session.model.module().train(model.train);
  return session;
}

}  // namespace modrec
