#include "arguments/input_size_spec.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>

#include "files/scalar_type.h"
#include "util/error.h"
#include "util/memory.h"
#include "util/text.h"

namespace modrec {

namespace {

Error bad_spec(const std::string& text, const std::string& why) {
  return Error(Exit::usage, "bad input size '" + text + "': " + why, "--input-size",
               "use e.g. 1x3x224x224 or 2x12:long");
}

int64_t parse_dim(const std::string& text, const std::string& dim) {
  if (dim.empty() || dim.size() > 12 || !std::all_of(dim.begin(), dim.end(), ::isdigit))
    throw bad_spec(text, "'" + dim + "' is not a dimension");
  const int64_t size = std::stoll(dim);
  if (size == 0)  // an empty input runs no layer; say so here rather than as a model failure
    throw bad_spec(text, "dimensions must be at least 1");
  return size;
}

// The bytes a spec asks for; 0 when the count overflows 64 bits (more than any machine has).
uint64_t bytes_of(const InputSizeSpec& s) {
  uint64_t bytes = c10::elementSize(s.dtype);
  for (int64_t d : s.shape)
    if (__builtin_mul_overflow(bytes, uint64_t(d), &bytes)) return 0;
  return bytes;
}

Error cannot_allocate(const InputSizeSpec& s, uint64_t bytes, const std::string& why) {
  const std::string asked = bytes ? std::to_string(bytes) + " bytes" : "more than 2^64 bytes";
  return Error(
      Exit::usage,
      "cannot allocate the random input " + shape_text(s.shape) + " (" + asked + "): " + why,
      "--input-size", "ask for a smaller shape, or stream a file with --input and --batch-size");
}

at::Tensor draw(const InputSizeSpec& s, at::Generator& gen, int64_t high) {
  auto options = at::TensorOptions().dtype(s.dtype);
  if (s.dtype == at::kBool)
    return at::randint(0, std::min<int64_t>(high, 2), s.shape, gen, options);
  if (at::isIntegralType(s.dtype, false)) return at::randint(0, high, s.shape, gen, options);
  if (at::isReducedFloatingType(s.dtype))  // CPU randn lacks half, bfloat16, float8: draw float32
    return at::randn(s.shape, gen, at::TensorOptions().dtype(at::kFloat)).to(s.dtype);
  return at::randn(s.shape, gen, options);
}

}  // namespace

InputSizeSpec parse_input_spec(const std::string& text) {
  InputSizeSpec spec;
  std::string dims = text.substr(0, text.find(':'));
  if (dims.size() < text.size() && !parse_dtype(text.substr(dims.size() + 1), spec.dtype))
    throw bad_spec(text, "unknown dtype '" + text.substr(dims.size() + 1) + "'");
  for (size_t at = 0;;) {
    size_t x = dims.find('x', at);
    spec.shape.push_back(parse_dim(text, dims.substr(at, x - at)));
    if (x == std::string::npos) break;
    at = x + 1;
  }
  return spec;
}

std::vector<at::Tensor> random_inputs(const std::vector<InputSizeSpec>& specs, uint64_t seed,
                                      int64_t high) {
  if (high < 1)
    throw Error(Exit::usage, "--high must be at least 1, got " + std::to_string(high), "--high",
                "integers are drawn from [0, high)");
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  std::vector<at::Tensor> out;
  const uint64_t memory = physical_memory_bytes();
  for (const auto& s : specs) {
    // Refused before LibTorch tries: past the machine's memory an allocation may succeed lazily
    // and the process be killed while filling it.
    const uint64_t bytes = bytes_of(s);
    if (bytes == 0 || (memory && bytes > memory))
      throw cannot_allocate(s, bytes, "this machine has " + std::to_string(memory) + " bytes");
    try {
      out.push_back(draw(s, gen, high));
    } catch (const c10::Error& e) {
      throw cannot_allocate(s, bytes, first_line(e.what_without_backtrace()));
    }
  }
  return out;
}

}  // namespace modrec
