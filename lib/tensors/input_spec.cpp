#include "tensors/input_spec.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>

#include "tensors/dtype.h"
#include "util/error.h"

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

}  // namespace

InputSpec parse_input_spec(const std::string& text) {
  InputSpec spec;
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

std::vector<at::Tensor> random_inputs(const std::vector<InputSpec>& specs, uint64_t seed, int64_t high) {
  if (high < 1)
    throw Error(Exit::usage, "--high must be at least 1, got " + std::to_string(high), "--high",
                "integers are drawn from [0, high)");
  at::Generator gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  std::vector<at::Tensor> out;
  for (const auto& s : specs) {
    auto options = at::TensorOptions().dtype(s.dtype);
    if (s.dtype == at::kBool)
      out.push_back(at::randint(0, std::min<int64_t>(high, 2), s.shape, gen, options));
    else if (at::isIntegralType(s.dtype, false))
      out.push_back(at::randint(0, high, s.shape, gen, options));
    else if (s.dtype == at::kHalf || s.dtype == at::kBFloat16)  // CPU randn lacks these: draw float32
      out.push_back(at::randn(s.shape, gen, at::TensorOptions().dtype(at::kFloat)).to(s.dtype));
    else
      out.push_back(at::randn(s.shape, gen, options));
  }
  return out;
}

}  // namespace modrec
