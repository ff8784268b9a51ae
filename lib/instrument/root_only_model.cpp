#include "instrument/root_only_model.h"

#include "util/log.h"

namespace modrec {

RootOnlyModel::RootOnlyModel(std::string path, std::string what, const std::string& type)
    : path_(std::move(path)), what_(std::move(what)) {
  tree_.modules.push_back(Module{"", type, type, "", 0, -1, {}, {}, {}});
}

c10::IValue RootOnlyModel::forward(std::vector<c10::IValue> inputs, CallHooks& hooks) {
  hooks.enter(0, 0, inputs);
  std::vector<at::Tensor> tensors;
  bool meta = false;
  for (const c10::IValue& v : inputs) {
    const at::Tensor t = v.toTensor();
    meta = meta || t.is_meta();
    tensors.push_back(t.is_meta() ? at::zeros(t.sizes(), t.options().device(at::kCPU)) : t);
  }
  std::vector<c10::IValue> outs;
  for (const at::Tensor& t : run(tensors)) outs.push_back(meta ? t.to(at::kMeta) : t);
  report_calls(hooks, meta);
  return hooks.leave(0, 0, pack(std::move(outs)));
}

c10::IValue RootOnlyModel::pack(std::vector<c10::IValue> outputs) const {
  if (outputs.size() == 1) return outputs[0];
  return c10::ivalue::Tuple::create(std::move(outputs));
}

void RootOnlyModel::to(const at::Device& device) {
  if (!device.is_cpu() && !device.is_meta())
    throw Error(Exit::usage, what_ + " runs on the device it was compiled for", "--device",
                "leave --device out");
}

void RootOnlyModel::train(bool on) {
  if (on) log::warn(path_, ": compiled code runs as it was compiled; train mode changes nothing");
}

}  // namespace modrec
