#include "instrument/executorch/executorch_program.h"

#include <dlfcn.h>

#include "instrument/executorch/executorch_abi.h"
#include "instrument/root_only_model.h"
#include "load/executorch_runtime.h"
#include "util/error.h"
#include "util/log.h"

namespace modrec {
namespace {

// ExecuTorch's log lines at -v: what goes wrong reaches the user as the Error its call returns.
void runtime_log(char level, const char* message, size_t length) {
  log::debug("ExecuTorch (", level, "): ", std::string_view(message, length));
}

// The shim's functions (executorch_abi.h), looked up once.
struct Shim {
  ModrecEtSetLog set_log;
  ModrecEtOpen open;
  ModrecEtInputs inputs;
  ModrecEtRun run;
  ModrecEtClose close;
};

const Shim& shim(const std::string& path) {
  static const Shim functions = [&] {
    void* handle = load_executorch_shim(path);
    return Shim{reinterpret_cast<ModrecEtSetLog>(dlsym(handle, "modrec_et_set_log")),
                reinterpret_cast<ModrecEtOpen>(dlsym(handle, "modrec_et_open")),
                reinterpret_cast<ModrecEtInputs>(dlsym(handle, "modrec_et_inputs")),
                reinterpret_cast<ModrecEtRun>(dlsym(handle, "modrec_et_run")),
                reinterpret_cast<ModrecEtClose>(dlsym(handle, "modrec_et_close"))};
  }();
  if (!functions.set_log || !functions.open || !functions.inputs || !functions.run ||
      !functions.close)
    throw Error(Exit::bad_input, "modrec's ExecuTorch shim lacks its functions", path,
                "build modrec again");
  functions.set_log(runtime_log);
  return functions;
}

// An output's bytes, copied before the runtime reuses them.
void keep_output(void* context, const ModrecEtTensor* t) {
  const auto dtype = static_cast<at::ScalarType>(t->dtype);
  const at::IntArrayRef sizes(t->sizes, static_cast<size_t>(t->dim));
  const at::IntArrayRef strides(t->strides, static_cast<size_t>(t->dim));
  static_cast<std::vector<at::Tensor>*>(context)->push_back(
      at::from_blob(t->data, sizes, strides, at::TensorOptions().dtype(dtype)).clone());
}

class ExecuTorchProgram : public RootOnlyModel {
 public:
  ExecuTorchProgram(std::string path, const Shim& shim, void* program)
      : RootOnlyModel(std::move(path), "an ExecuTorch program", "ExecuTorchProgram"),
        shim_(shim),
        program_(program) {}
  ~ExecuTorchProgram() override { shim_.close(program_); }

  // forward's inputs, tensors all (the shim refuses a program taking other values).
  std::vector<c10::Argument> forward_arguments() const override {
    std::vector<c10::Argument> args;
    for (int i = 0; i < shim_.inputs(program_); ++i)
      args.emplace_back("input_" + std::to_string(i), c10::TensorType::get());
    return args;
  }

  // The program's constants live in its FlatBuffer, unnamed by module: none are listed.
  std::vector<std::pair<std::string, at::Tensor>> own_parameters(int) const override { return {}; }

 private:
  std::vector<at::Tensor> run(const std::vector<at::Tensor>& inputs) override {
    std::vector<at::Tensor> contiguous;
    std::vector<ModrecEtTensor> given;
    for (const at::Tensor& t : inputs) contiguous.push_back(t.contiguous());
    for (const at::Tensor& t : contiguous)
      given.push_back({static_cast<int32_t>(t.scalar_type()), static_cast<int32_t>(t.dim()),
                       t.sizes().data(), nullptr, t.data_ptr()});
    std::vector<at::Tensor> outputs;
    char why[512] = "";
    if (shim_.run(program_, given.data(), given.size(), keep_output, &outputs, why, sizeof why) !=
        0)
      throw Error(Exit::model_failed, why, path_,
                  "give inputs of the shapes and dtypes the program was exported for");
    return outputs;
  }

  const Shim& shim_;
  void* program_;
};

}  // namespace

std::unique_ptr<InstrumentedModel> open_executorch_program(const std::string& path) {
  const Shim& functions = shim(path);
  char why[512] = "";
  void* program = functions.open(path.c_str(), why, sizeof why);
  if (!program)
    throw Error(Exit::bad_input, why, path,
                "give a .pte that to_executorch wrote, or the .pt2 it was lowered from");
  if (functions.inputs(program) < 0) {
    functions.close(program);
    throw Error(Exit::bad_input, "ExecuTorch program's forward takes a value that is no tensor",
                path, "give a program whose inputs are tensors");
  }
  return std::make_unique<ExecuTorchProgram>(path, functions, program);
}

}  // namespace modrec
