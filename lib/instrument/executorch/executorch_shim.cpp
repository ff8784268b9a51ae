// The ExecuTorch shim (executorch_abi.h): a .pte program run by the executorch wheel's own C++
// runtime (extension::Module), with its CPU kernels and XNNPACK delegate registered by the
// libraries it links. Built only where the wheel's headers were found at configure time;
// torch-free.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr_maker.h>
#include <executorch/runtime/core/event_tracer.h>
#include <executorch/runtime/platform/platform.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "load/executorch/executorch_abi.h"

namespace {

using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;

void say(char* error, size_t size, const std::string& what, Error code) {
  std::snprintf(error, size, "%s (%s, error 0x%x)", what.c_str(),
                executorch::runtime::to_string(code), static_cast<unsigned>(code));
}

ModrecEtLog log_sink = nullptr;

// A tensor as the ABI passes it; `sizes` and `strides` hold its dims while it is in use.
ModrecEtTensor borrowed(const executorch::aten::Tensor& t, std::vector<int64_t>& sizes,
                        std::vector<int64_t>& strides) {
  sizes.assign(t.sizes().begin(), t.sizes().end());
  strides.assign(t.strides().begin(), t.strides().end());
  return {static_cast<int32_t>(t.scalar_type()), static_cast<int32_t>(t.dim()), sizes.data(),
          strides.data(), t.mutable_data_ptr()};
}

// ETDump's intermediate outputs, handed over as they come: the tensors a kernel's instruction
// logs (its out arguments). A delegate's instruction logs all its arguments, inputs too: left out.
class OutputTracer final : public executorch::runtime::EventTracer {
 public:
  using Entry = executorch::runtime::EventTracerEntry;
  using Type = executorch::runtime::LoggedEValueType;

  // From now on, the outputs go to `sink` (null: none are logged).
  void deliver(ModrecEtIntermediate sink, void* context) {
    sink_ = sink;
    context_ = context;
    using Level = executorch::runtime::EventTracerDebugLogLevel;
    set_event_tracer_debug_level(sink ? Level::kIntermediateOutputs : Level::kNoLogging);
  }

  executorch::runtime::Result<bool> log_evalue(const EValue& value, Type type) override {
    if (!sink_ || type != Type::kIntermediateOutput || delegates_ > 0 || !value.isTensor())
      return true;
    std::vector<int64_t> sizes, strides;
    const ModrecEtTensor t = borrowed(value.toTensor(), sizes, strides);
    sink_(context_, static_cast<int64_t>(current_debug_handle()), &t);
    return true;
  }
  Entry start_profiling(const char* name, executorch::runtime::ChainID,
                        executorch::runtime::DebugHandle) override {
    open_.push_back(name && std::strcmp(name, "DELEGATE_CALL") == 0);
    delegates_ += open_.back();
    return Entry{};
  }
  void end_profiling(Entry) override {
    if (open_.empty()) return;
    delegates_ -= open_.back();
    open_.pop_back();
  }

  // Profiling and delegates' own events: not asked for.
  void create_event_block(const char*) override {}
  Entry start_profiling_delegate(const char*, executorch::runtime::DelegateDebugIntId) override {
    return Entry{};
  }
  void end_profiling_delegate(Entry, const void*, size_t) override {}
  void log_profiling_delegate(const char*, executorch::runtime::DelegateDebugIntId, et_timestamp_t,
                              et_timestamp_t, const void*, size_t) override {}
  void track_allocation(executorch::runtime::AllocatorID, size_t) override {}
  executorch::runtime::AllocatorID track_allocator(const char*) override { return 0; }
  executorch::runtime::Result<bool> log_intermediate_output_delegate(
      const char*, executorch::runtime::DelegateDebugIntId,
      const executorch::aten::Tensor&) override {
    return false;
  }
  executorch::runtime::Result<bool> log_intermediate_output_delegate(
      const char*, executorch::runtime::DelegateDebugIntId,
      const executorch::runtime::ArrayRef<executorch::aten::Tensor>) override {
    return false;
  }
  executorch::runtime::Result<bool> log_intermediate_output_delegate(
      const char*, executorch::runtime::DelegateDebugIntId, const int&) override {
    return false;
  }
  executorch::runtime::Result<bool> log_intermediate_output_delegate(
      const char*, executorch::runtime::DelegateDebugIntId, const bool&) override {
    return false;
  }
  executorch::runtime::Result<bool> log_intermediate_output_delegate(
      const char*, executorch::runtime::DelegateDebugIntId, const double&) override {
    return false;
  }
  void set_delegation_intermediate_output_filter(
      executorch::runtime::EventTracerFilterBase*) override {}

 private:
  ModrecEtIntermediate sink_ = nullptr;
  void* context_ = nullptr;
  std::vector<bool> open_;  // the profiling events open, innermost last: a delegate call's?
  int delegates_ = 0;       // how many of them are delegate calls
};

// forward's inputs and outputs as ModrecEtMethod gives them, and the sizes they point into.
struct Signature {
  size_t inputs = 0;
  std::vector<ModrecEtTensor> values;
  std::vector<std::vector<int64_t>> sizes;  // per value
};

// One input's or output's metadata, or a value that is no tensor (dtype -1).
ModrecEtTensor value_meta(executorch::runtime::Result<executorch::runtime::Tag> tag,
                          executorch::runtime::Result<executorch::runtime::TensorInfo> info,
                          std::vector<int64_t>& sizes) {
  if (!tag.ok() || *tag != executorch::runtime::Tag::Tensor || !info.ok())
    return {-1, 0, nullptr, nullptr, nullptr};
  sizes.assign(info->sizes().begin(), info->sizes().end());
  return {static_cast<int32_t>(info->scalar_type()), static_cast<int32_t>(sizes.size()),
          sizes.data(), nullptr, nullptr};
}

Signature signature(const executorch::runtime::MethodMeta& meta) {
  Signature out;
  out.inputs = meta.num_inputs();
  out.sizes.resize(meta.num_inputs() + meta.num_outputs());
  for (size_t i = 0; i < meta.num_inputs(); ++i)
    out.values.push_back(value_meta(meta.input_tag(i), meta.input_tensor_meta(i), out.sizes[i]));
  for (size_t i = 0; i < meta.num_outputs(); ++i)
    out.values.push_back(
        value_meta(meta.output_tag(i), meta.output_tensor_meta(i), out.sizes[out.inputs + i]));
  return out;
}

// forward's instructions as the runtime counts them, what an ETRecord's instruction ids are held
// to. ExecuTorch 1.5.1 marks the count experimental ([[deprecated]]): the only one it gives.
int64_t instruction_count(const executorch::runtime::MethodMeta& meta) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  return static_cast<int64_t>(meta.num_instructions());
#pragma GCC diagnostic pop
}

// A loaded program, the tracer its method logs to, and forward's signature.
struct Program {
  std::unique_ptr<Module> module;
  OutputTracer* tracer;  // owned by module
  int64_t instructions;
  Signature signature;
};

void emit(et_timestamp_t, et_pal_log_level_t level, const char*, const char*, size_t,
          const char* message, size_t length) {
  if (log_sink) log_sink(static_cast<char>(level), message, length);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) void modrec_et_set_log(ModrecEtLog sink) {
  log_sink = sink;
  executorch::runtime::register_pal(executorch::runtime::PalImpl::create(emit, __FILE__));
}

__attribute__((visibility("default"))) void* modrec_et_open(const char* path, char* error,
                                                            size_t error_size) {
  auto tracer = std::make_unique<OutputTracer>();
  OutputTracer* traced = tracer.get();
  auto module = std::make_unique<Module>(path, Module::LoadMode::File, std::move(tracer));
  // First: every other call of Module loads the program unverified (Minimal) when it is not loaded.
  using Verification = executorch::runtime::Program::Verification;
  if (const Error e = module->load(Verification::InternalConsistency); e != Error::Ok) {
    say(error, error_size,
        "ExecuTorch program is damaged: ExecuTorch's verifier refuses it (its FlatBuffer's "
        "offsets, sizes or tensors are inconsistent, or the file is cut short)",
        e);
    return nullptr;
  }
  auto meta = module->method_meta("forward");
  if (!meta.ok()) {
    say(error, error_size, "ExecuTorch program has no method forward", meta.error());
    return nullptr;
  }
  if (const Error e = module->load_method("forward"); e != Error::Ok) {
    say(error, error_size, "ExecuTorch program's method forward cannot be loaded", e);
    return nullptr;
  }
  return new Program{std::move(module), traced, instruction_count(*meta), signature(*meta)};
}

__attribute__((visibility("default"))) void modrec_et_describe(void* program,
                                                               ModrecEtMethod* method) {
  const Program& p = *static_cast<Program*>(program);
  *method = {p.instructions, p.signature.inputs, p.signature.values.size() - p.signature.inputs,
             p.signature.values.data()};
}

__attribute__((visibility("default"))) int modrec_et_run(
    void* program, const ModrecEtTensor* inputs, size_t count, ModrecEtOutput output,
    ModrecEtIntermediate intermediate, void* context, char* error, size_t error_size) {
  std::vector<executorch::extension::TensorPtr> tensors;  // alive until forward returns
  std::vector<EValue> values;
  for (size_t i = 0; i < count; ++i) {
    const ModrecEtTensor& in = inputs[i];
    tensors.push_back(executorch::extension::from_blob(
        in.data, std::vector<executorch::aten::SizesType>(in.sizes, in.sizes + in.dim),
        static_cast<executorch::aten::ScalarType>(in.dtype)));
    values.emplace_back(*tensors.back());
  }
  Program& run = *static_cast<Program*>(program);
  run.tracer->deliver(intermediate, context);
  auto outs = run.module->forward(values);
  run.tracer->deliver(nullptr, nullptr);
  if (!outs.ok()) {
    say(error, error_size, "ExecuTorch program failed", outs.error());
    return -1;
  }
  for (const EValue& value : *outs) {
    if (!value.isTensor()) {
      std::snprintf(error, error_size, "ExecuTorch program returned a value that is no tensor");
      return -1;
    }
    std::vector<int64_t> sizes, strides;
    const ModrecEtTensor out = borrowed(value.toTensor(), sizes, strides);
    output(context, &out);
  }
  return 0;
}

__attribute__((visibility("default"))) void modrec_et_close(void* program) {
  delete static_cast<Program*>(program);
}
}
