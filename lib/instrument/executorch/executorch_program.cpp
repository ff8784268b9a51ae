#include "instrument/executorch/executorch_program.h"

#include <algorithm>
#include <optional>

#include "instrument/executorch/etrecord_calls.h"
#include "instrument/root_only_model.h"
#include "load/executorch/etrecord_check.h"
#include "load/executorch/executorch_runtime.h"
#include "load/executorch/pte_header.h"
#include "load/executorch/pte_method.h"
#include "load/pt2/schema_enums.h"
#include "util/error.h"
#include "util/log.h"

namespace modrec {
namespace {

// ExecuTorch's log lines at -v: what goes wrong reaches the user as the Error its call returns.
void runtime_log(char level, const char* message, size_t length) {
  log::debug("ExecuTorch (", level, "): ", std::string_view(message, length));
}

// The shim's functions, its runtime's log lines sent to modrec's.
const ExecuTorchShim& shim(const std::string& path) {
  const ExecuTorchShim& functions = load_executorch_shim(path);
  functions.set_log(runtime_log);
  return functions;
}

// What one run hands back: its outputs, and the instructions' (asked for with an ETRecord).
struct RunResults {
  std::vector<at::Tensor> outputs;
  std::vector<LoggedOutput> logged;  // per intermediate output, its instruction and shape
  std::vector<at::Tensor> intermediates;
};

// A tensor's bytes, copied before the runtime reuses them.
at::Tensor copied(const ModrecEtTensor* t) {
  const auto dtype = static_cast<at::ScalarType>(t->dtype);
  const at::IntArrayRef sizes(t->sizes, static_cast<size_t>(t->dim));
  const at::IntArrayRef strides(t->strides, static_cast<size_t>(t->dim));
  return at::from_blob(t->data, sizes, strides, at::TensorOptions().dtype(dtype)).clone();
}

void keep_output(void* context, const ModrecEtTensor* t) {
  static_cast<RunResults*>(context)->outputs.push_back(copied(t));
}

void keep_intermediate(void* context, int64_t instruction, const ModrecEtTensor* t) {
  auto& results = *static_cast<RunResults*>(context);
  results.intermediates.push_back(copied(t));
  results.logged.push_back({instruction, results.intermediates.back().sizes().vec()});
}

// An open program, closed by the shim that opened it.
using OpenProgram = std::unique_ptr<void, ModrecEtClose>;

class ExecuTorchProgram : public RootOnlyModel {
 public:
  ExecuTorchProgram(std::string path, const ExecuTorchShim& shim, OpenProgram program,
                    PteMethod method, std::optional<EtRecord> record)
      : RootOnlyModel(std::move(path), "an ExecuTorch program", "ExecuTorchProgram"),
        shim_(shim),
        program_(std::move(program)),
        method_(std::move(method)),
        record_(std::move(record)) {
    if (record_) tree_ = record_->tree;  // the eager model's modules, its root's class
  }

  // forward's inputs, tensors all (a program taking other values is refused as it opens).
  std::vector<c10::Argument> forward_arguments() const override {
    std::vector<c10::Argument> args;
    for (size_t i = 0; i < method_.inputs.size(); ++i)
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
    last_ = RunResults{};
    char why[512] = "";
    if (shim_.run(program_.get(), given.data(), given.size(), keep_output,
                  record_ ? keep_intermediate : nullptr, &last_, why, sizeof why) != 0)
      throw Error(Exit::model_failed, why, path_,
                  "give inputs of the shapes and dtypes the program was exported for");
    return last_.outputs;
  }

  // The ETRecord's calls, nested as they started, each returning the output its last
  // instruction logged; on the meta device (summary's sizes) where none was logged (a delegate
  // runs its calls unseen), the output its edge program declares for it.
  void report_calls(CallHooks& hooks, bool meta) override {
    if (!record_) return;
    const std::vector<EtCall> calls = etrecord_calls(*record_, tree_, last_.logged);
    // A program a delegate runs whole logs nothing: its root is all there is to record.
    if (!meta &&
        std::none_of(calls.begin(), calls.end(), [](const EtCall& c) { return c.output >= 0; }))
      return;
    std::vector<int> open;
    auto leave = [&] {
      const EtCall& c = calls[open.back()];
      c10::IValue out = logged(c);
      if (meta) out = out.isTensor() ? c10::IValue(out.toTensor().to(at::kMeta)) : declared(c);
      hooks.leave(open.back() + 1, c.module, out);
      open.pop_back();
    };
    for (size_t i = 0; i < calls.size(); ++i) {
      while (!open.empty() && open.back() != calls[i].parent) leave();
      hooks.enter(static_cast<int>(i) + 1, calls[i].module, {});
      open.push_back(static_cast<int>(i));
    }
    while (!open.empty()) leave();
  }

  // The value the runtime logged for call `c`, in the shape the call returned; none if it logged
  // none.
  c10::IValue logged(const EtCall& c) const {
    if (c.output < 0) return {};
    return last_.intermediates[c.output].reshape(c.shape);
  }

  // A meta tensor of the output the edge program declares for call `c`'s last node; none when it
  // is no tensor.
  c10::IValue declared(const EtCall& c) const {
    const EtRecordNode& node = record_->nodes[c.node];
    const auto dtype = pt2::scalar_type(node.dtype);
    if (!dtype ||
        std::any_of(node.shape.begin(), node.shape.end(), [](int64_t s) { return s < 0; }))
      return {};
    return at::empty(node.shape, at::TensorOptions().dtype(*dtype).device(at::kMeta));
  }

  const ExecuTorchShim& shim_;
  OpenProgram program_;
  PteMethod method_;
  std::optional<EtRecord> record_;
  RunResults last_;
};

}  // namespace

std::unique_ptr<InstrumentedModel> open_executorch_program(const std::string& path,
                                                           const std::string& etrecord) {
  read_pte_header(path);  // its parts within the file, before the runtime reads it
  std::optional<EtRecord> record;
  if (!etrecord.empty()) record = read_etrecord(etrecord);
  const ExecuTorchShim& functions = shim(path);
  char why[512] = "";
  void* opened = functions.open(path.c_str(), why, sizeof why);
  if (!opened)
    throw Error(Exit::bad_input, why, path,
                "give a .pte that to_executorch wrote, or the .pt2 it was lowered from");
  OpenProgram program(opened, functions.close);
  ModrecEtMethod described{};
  functions.describe(program.get(), &described);
  PteMethod method = pte_method(described);
  if (std::any_of(method.inputs.begin(), method.inputs.end(),
                  [](const PteValue& v) { return !v.tensor(); }))
    throw Error(Exit::bad_input, "ExecuTorch program's forward takes a value that is no tensor",
                path, "give a program whose inputs are tensors");
  if (record) check_etrecord(*record, method);
  return std::make_unique<ExecuTorchProgram>(path, functions, std::move(program), std::move(method),
                                             std::move(record));
}

}  // namespace modrec
