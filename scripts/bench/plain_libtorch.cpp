// Plain LibTorch baseline for scripts/bench.sh: what modrec's passes cost without any
// instrumentation. Loads a TorchScript file, runs the same input the way modrec does (eval mode,
// threads = cores unless --threads) and prints one JSON object with per-repetition times.
//
//   plain_libtorch MODEL (--input FILE | --input-size 8x3x224x224) [--mode forward|backward]
//                  [--reps N] [--threads T] [--device cpu|cuda]
//
// forward: one forward under NoGradGuard; backward: forward with autograd on plus
// sum().backward() of the first output. On the GPU a repetition ends when the device is done. Parameter gradients are reset between repetitions so that
// every repetition does what modrec's single pass does (no accumulation into existing grads).
#include <ATen/Parallel.h>
#include <torch/cuda.h>
#include <torch/script.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <ctime>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <thread>

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::vector<int64_t> parse_shape(const std::string& spec) {
  std::vector<int64_t> shape;
  std::stringstream in(spec);
  for (std::string dim; std::getline(in, dim, 'x');) shape.push_back(std::stoll(dim));
  return shape;
}

// A tensor saved by Python's torch.save(t, FILE); seeded normal noise for --input-size.
at::Tensor read_input(const std::string& file, const std::string& size) {
  if (file.empty()) {
    torch::manual_seed(0);
    return torch::randn(parse_shape(size));
  }
  std::ifstream in(file, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return torch::jit::pickle_load(bytes).toTensor();
}

at::Tensor first_tensor(const c10::IValue& v) {
  if (v.isTensor()) return v.toTensor();
  if (v.isTuple()) return first_tensor(v.toTupleRef().elements().at(0));
  if (v.isList()) return first_tensor(v.toListRef().at(0));
  throw std::runtime_error("the model returned no tensor");
}

void reset_grads(torch::jit::Module& model) {
  for (at::Tensor p : model.parameters()) p.mutable_grad().reset();
}

struct Times {
  double wall_s, cpu_s;  // cpu: all threads of the process, user+sys
};

Times time_one(torch::jit::Module& model, const at::Tensor& input, bool backward) {
  const auto start = Clock::now();
  const std::clock_t cpu_start = std::clock();
  if (backward) {
    first_tensor(model.forward({input})).sum().backward();
  } else {
    torch::NoGradGuard no_grad;
    model.forward({input});
  }
  if (input.is_cuda()) torch::cuda::synchronize();
  return {seconds_since(start), double(std::clock() - cpu_start) / CLOCKS_PER_SEC};
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"plain LibTorch baseline for modrec's benchmark"};
  std::string model_path, input_file, input_size, mode = "forward", device = "cpu";
  int reps = 5;
  int threads = 0;
  app.add_option("model", model_path)->required();
  app.add_option("--input", input_file);
  app.add_option("--input-size", input_size);
  app.add_option("--mode", mode)->check(CLI::IsMember({"forward", "backward"}));
  app.add_option("--reps", reps)->check(CLI::PositiveNumber);
  app.add_option("--threads", threads);
  app.add_option("--device", device)->check(CLI::IsMember({"cpu", "cuda"}));
  CLI11_PARSE(app, argc, argv);
  if (input_file.empty() == input_size.empty()) {
    std::cerr << "plain_libtorch: give exactly one of --input and --input-size\n";
    return 2;
  }

  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  at::set_num_threads(threads);
  auto start = Clock::now();
  torch::jit::Module model = torch::jit::load(model_path);
  model.eval();
  model.to(at::Device(device));  // as modrec: the load's time includes the copy to the device
  const double load_s = seconds_since(start);
  start = Clock::now();
  const at::Tensor input = read_input(input_file, input_size).to(at::Device(device));
  const double input_s = seconds_since(start);

  std::vector<double> times, cpu_times;
  for (int i = 0; i < reps; ++i) {
    reset_grads(model);
    const Times t = time_one(model, input, mode == "backward");
    times.push_back(t.wall_s);
    cpu_times.push_back(t.cpu_s);
  }
  const nlohmann::json report = {{"model", model_path},     {"mode", mode},
                                 {"threads", threads},      {"shape", input.sizes().vec()}, {"device", device},
                                 {"load_s", load_s},        {"input_s", input_s},
                                 {"times_s", times},        {"cpu_times_s", cpu_times}};
  std::cout << report.dump() << "\n";
  return 0;
}
