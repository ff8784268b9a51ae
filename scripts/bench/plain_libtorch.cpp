// Plain LibTorch baseline for scripts/bench.sh: what modrec's passes cost without any
// instrumentation. Loads a TorchScript file, runs the same input the way modrec does (eval mode,
// threads = cores unless --threads) and prints one JSON object with per-repetition times.
//
//   plain_libtorch MODEL (--input FILE | --input-size 8x3x224x224) [--mode forward|backward]
//                  [--reps N] [--batch-size B] [--threads T] [--device cpu|cuda]
//   plain_libtorch MODEL --stream-npy FILE --batch-size B [--mode ...] [--threads T]
//   plain_libtorch MODEL --input FILE --train-steps N [--lr F] [--batch-size B] [--threads T]
//
// --batch-size with --input: repetition (or step) i runs the input's batch i (cycling), as
// modrec's record and watch do with --batch-size; without it each runs the whole input.
//
// --train-steps: N SGD steps in train mode on the whole input, loss the sum of the first output
// (what `modrec watch --loss sum --optimizer sgd` runs), each step timed.
// --stream-npy: one pass over a C-order float32 .npy, B samples at a time read with pread into a
// fresh tensor (what a plain data loader does), for the data-at-scale benchmark's samples/s.
//
// forward: one forward under NoGradGuard; backward: forward with autograd on plus
// sum().backward() of the first output. On the GPU a repetition ends when the device is done.
// Parameter gradients are reset between repetitions so that every repetition does what modrec's
// single pass does (no accumulation into existing grads).
#include <ATen/Parallel.h>
#include <torch/cuda.h>
#include <torch/optim/sgd.h>
#include <torch/script.h>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <unistd.h>

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

// The shape a numpy-written float32 C-order .npy holds, and where its data starts.
std::vector<int64_t> npy_shape(int fd, off_t& data_at) {
  char head[4096] = {};
  const ssize_t n = pread(fd, head, sizeof head, 0);
  const std::string text(head, n > 0 ? static_cast<size_t>(n) : 0);
  if (text.find("'<f4'") == std::string::npos ||
      text.find("'fortran_order': False") == std::string::npos)
    throw std::runtime_error("--stream-npy needs a C-order float32 .npy");
  data_at = static_cast<off_t>(text.find('\n') + 1);
  std::vector<int64_t> shape;
  const size_t open = text.find("'shape': (") + 10;
  std::stringstream dims(text.substr(open, text.find(')', open) - open));
  for (std::string d; std::getline(dims, d, ',');)
    if (d.find_first_of("0123456789") != std::string::npos) shape.push_back(std::stoll(d));
  return shape;
}

// One pass over the file's batches; prints the JSON report.
int stream_npy(torch::jit::Module& model, const std::string& path, int64_t batch, bool backward) {
  const int fd = open(path.c_str(), O_RDONLY);
  off_t data_at = 0;
  std::vector<int64_t> shape = npy_shape(fd, data_at);
  const int64_t samples = shape[0];
  int64_t row = 4;
  for (size_t d = 1; d < shape.size(); ++d) row *= shape[d];
  const auto start = Clock::now();
  for (int64_t first = 0; first < samples; first += batch) {
    shape[0] = std::min(batch, samples - first);
    at::Tensor input = at::empty(shape);
    if (pread(fd, input.data_ptr(), static_cast<size_t>(shape[0] * row), data_at + first * row) < 0)
      throw std::runtime_error("read failed");
    reset_grads(model);
    time_one(model, input, backward);
  }
  const double seconds = seconds_since(start);
  close(fd);
  std::cout << nlohmann::json{{"samples", samples},
                              {"batch_size", batch},
                              {"seconds", seconds},
                              {"samples_per_s", samples / seconds}}
                   .dump()
            << "\n";
  return 0;
}

// Batch i of `input` in batches of `size` (cycling over them); the whole input when size is 0.
at::Tensor batch_of(const at::Tensor& input, int64_t size, int i) {
  if (size <= 0) return input;
  const int64_t count = (input.size(0) + size - 1) / size;
  const int64_t first = (i % count) * size;
  return input.narrow(0, first, std::min(size, input.size(0) - first));
}

// N optimizer steps; prints the JSON report.
int train_steps(torch::jit::Module& model, const at::Tensor& input, int64_t batch, int steps,
                double lr) {
  model.train();
  std::vector<at::Tensor> params;
  for (const at::Tensor& p : model.parameters()) params.push_back(p);
  torch::optim::SGD sgd(params, torch::optim::SGDOptions(lr));
  std::vector<double> times;
  for (int i = 0; i < steps; ++i) {
    const auto start = Clock::now();
    sgd.zero_grad();
    first_tensor(model.forward({batch_of(input, batch, i)})).sum().backward();
    sgd.step();
    if (input.is_cuda()) torch::cuda::synchronize();
    times.push_back(seconds_since(start));
  }
  std::cout << nlohmann::json{{"step_times_s", times}}.dump() << "\n";
  return 0;
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
  std::string stream_file;
  int64_t batch_size = 0;
  app.add_option("--stream-npy", stream_file);
  app.add_option("--batch-size", batch_size);
  int train = 0;
  double lr = 0.01;
  app.add_option("--train-steps", train);
  app.add_option("--lr", lr);
  CLI11_PARSE(app, argc, argv);
  if (input_file.empty() == input_size.empty() && stream_file.empty()) {
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
  if (!stream_file.empty()) return stream_npy(model, stream_file, batch_size, mode == "backward");
  start = Clock::now();
  const at::Tensor input = read_input(input_file, input_size).to(at::Device(device));
  const double input_s = seconds_since(start);
  if (train > 0) return train_steps(model, input, batch_size, train, lr);

  std::vector<double> times, cpu_times;
  for (int i = 0; i < reps; ++i) {
    reset_grads(model);
    const Times t = time_one(model, batch_of(input, batch_size, i), mode == "backward");
    times.push_back(t.wall_s);
    cpu_times.push_back(t.cpu_s);
  }
  const nlohmann::json report = {
      {"model", model_path},          {"mode", mode},     {"threads", threads},
      {"shape", input.sizes().vec()}, {"device", device}, {"load_s", load_s},
      {"input_s", input_s},           {"times_s", times}, {"cpu_times_s", cpu_times}};
  std::cout << report.dump() << "\n";
  return 0;
}
