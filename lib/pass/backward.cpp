#include "pass/backward.h"

#include <ATen/ATen.h>

#include "pass/value_meta.h"
#include "tensor_files/read_inputs.h"
#include "util/error.h"

namespace modrec {

at::Tensor first_output(const c10::IValue& output) {
  std::vector<at::Tensor> tensors;
  flatten_tensors(output, tensors);
  if (tensors.empty())
    throw Error(Exit::model_failed, "the model returned no tensor", "backward",
                "record its forward pass only");
  return tensors[0];
}

bool has_gradient(const c10::IValue& output) {
  std::vector<at::Tensor> tensors;
  flatten_tensors(output, tensors);
  return !tensors.empty() && tensors[0].requires_grad();
}

namespace {

// The model's own backward raised (an in-place change autograd needed undone; cuDNN's RNN
// backward, which runs in training mode only): the model's failure, not modrec's.
Error backward_failed(const c10::Error& e, const std::string& forward_only) {
  const std::string message = first_line(e.what());
  const bool eval_only = message.find("training mode") != std::string::npos;
  return Error(
      Exit::model_failed, "the model's backward failed: " + message, "backward",
      eval_only ? "run it with --mode train or --device cpu, or " + forward_only : forward_only);
}

// The output is let go before the backward runs, as `model(x).sum().backward()` lets it go:
// autograd frees what it saved of it once used (memory_meter.h measures that).
void backward_from(at::Tensor out, const BackwardOptions& options) {
  try {
    if (!options.seed.defined()) {
      at::Tensor loss = options.loss == Loss::mean ? out.mean() : out.sum();
      out.reset();
      loss.backward();
    } else
      out.backward(options.seed.to(out.dtype()));
  } catch (const c10::Error& e) {
    throw backward_failed(e, options.forward_only_hint);
  }
}

}  // namespace

void run_backward(c10::IValue output, const BackwardOptions& options) {
  at::Tensor out = first_output(output);
  output = c10::IValue();
  if (!out.requires_grad())
    throw Error(Exit::model_failed, "the model's first output does not require grad", "backward",
                options.forward_only_hint);
  if (options.seed.defined() && options.seed.sizes() != out.sizes())
    throw Error(Exit::bad_input,
                "gradient shape " + c10::str(options.seed.sizes()) +
                    " differs from the first output's " + c10::str(out.sizes()),
                options.seed_file, "save a gradient of the first output's shape");
  backward_from(std::move(out), options);
}

at::Tensor read_gradient_seed(const std::string& path) {
  auto tensors = read_inputs(path);
  if (tensors.size() != 1)
    throw Error(Exit::bad_input, "expected one tensor", path,
                "save the gradient of the first output with torch.save(t, FILE)");
  return tensors[0];
}

}  // namespace modrec
