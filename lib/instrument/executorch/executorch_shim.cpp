// The ExecuTorch shim (executorch_abi.h): a .pte program run by the executorch wheel's own C++
// runtime (extension::Module), with its CPU kernels and XNNPACK delegate registered by the
// libraries it links. Built only where the wheel's headers were found at configure time;
// torch-free.
#include <executorch/extension/module/module.h>
#include <executorch/extension/tensor/tensor_ptr_maker.h>
#include <executorch/runtime/platform/platform.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "instrument/executorch/executorch_abi.h"

namespace {

using executorch::extension::Module;
using executorch::runtime::Error;
using executorch::runtime::EValue;

void say(char* error, size_t size, const std::string& what, Error code) {
  std::snprintf(error, size, "%s (%s, error 0x%x)", what.c_str(),
                executorch::runtime::to_string(code), static_cast<unsigned>(code));
}

ModrecEtLog log_sink = nullptr;

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
  auto module = std::make_unique<Module>(path, Module::LoadMode::File);
  if (const Error e = module->load(); e != Error::Ok) {
    say(error, error_size, "ExecuTorch program cannot be loaded by ExecuTorch's runtime", e);
    return nullptr;
  }
  if (const Error e = module->load_method("forward"); e != Error::Ok) {
    say(error, error_size, "ExecuTorch program's method forward cannot be loaded", e);
    return nullptr;
  }
  return module.release();
}

__attribute__((visibility("default"))) int modrec_et_inputs(void* program) {
  auto meta = static_cast<Module*>(program)->method_meta("forward");
  if (!meta.ok()) return -1;
  for (size_t i = 0; i < meta->num_inputs(); ++i)
    if (auto tag = meta->input_tag(i); !tag.ok() || *tag != executorch::runtime::Tag::Tensor)
      return -1;
  return static_cast<int>(meta->num_inputs());
}

__attribute__((visibility("default"))) int modrec_et_run(void* program,
                                                         const ModrecEtTensor* inputs, size_t count,
                                                         ModrecEtOutput output, void* context,
                                                         char* error, size_t error_size) {
  std::vector<executorch::extension::TensorPtr> tensors;  // alive until forward returns
  std::vector<EValue> values;
  for (size_t i = 0; i < count; ++i) {
    const ModrecEtTensor& in = inputs[i];
    tensors.push_back(executorch::extension::from_blob(
        in.data, std::vector<executorch::aten::SizesType>(in.sizes, in.sizes + in.dim),
        static_cast<executorch::aten::ScalarType>(in.dtype)));
    values.emplace_back(*tensors.back());
  }
  auto outs = static_cast<Module*>(program)->forward(values);
  if (!outs.ok()) {
    say(error, error_size, "ExecuTorch program failed", outs.error());
    return -1;
  }
  for (const EValue& value : *outs) {
    if (!value.isTensor()) {
      std::snprintf(error, error_size, "ExecuTorch program returned a value that is no tensor");
      return -1;
    }
    const auto& t = value.toTensor();
    const std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
    const std::vector<int64_t> strides(t.strides().begin(), t.strides().end());
    const ModrecEtTensor out{static_cast<int32_t>(t.scalar_type()), static_cast<int32_t>(t.dim()),
                             sizes.data(), strides.data(), t.mutable_data_ptr()};
    output(context, &out);
  }
  return 0;
}

__attribute__((visibility("default"))) void modrec_et_close(void* program) {
  delete static_cast<Module*>(program);
}
}
