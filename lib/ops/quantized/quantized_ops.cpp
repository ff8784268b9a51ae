#include "ops/quantized/quantized_ops.h"

#include <ATen/core/dispatch/Dispatcher.h>

#include <map>
#include <memory>

#include "ops/quantized/quantized_kernels.h"

namespace modrec::pt2 {

bool OpDefiner::registered(const std::string& schema) const {
  const std::string name = schema.substr(0, schema.find('('));  // quantize_per_tensor.tensor
  const size_t dot = name.find('.');
  const std::string overload = dot == std::string::npos ? "" : name.substr(dot + 1);
  return c10::Dispatcher::singleton()
      .findSchema({ns_ + "::" + name.substr(0, dot), overload})
      .has_value();
}

bool define_python_only_operators(const std::string& ns) {
  using Definitions = void (*)(OpDefiner&);
  static const std::map<std::string, Definitions> known{
      {"quantized_decomposed", define_quantized_decomposed},
      {"torchao", define_torchao},
      {"export", define_export}};
  // The registrations last as long as their libraries: the process's.
  static std::map<std::string, std::unique_ptr<torch::Library>> defined;
  const auto it = known.find(ns);
  if (it == known.end() || defined.count(ns)) return false;
  auto library = std::make_unique<torch::Library>(torch::Library::FRAGMENT, ns, std::nullopt,
                                                  __FILE__, __LINE__);
  OpDefiner ops(*library, ns);
  it->second(ops);
  defined[ns] = std::move(library);
  return ops.defined() > 0;
}

}  // namespace modrec::pt2
