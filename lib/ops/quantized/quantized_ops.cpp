#include "ops/quantized/quantized_ops.h"

#include <ATen/core/dispatch/Dispatcher.h>

#include <map>
#include <memory>

#include "ops/quantized/quantized_kernels.h"
#include "ops/transformers/moe_ops.h"

namespace modrec::pt2 {

bool define_python_only_operators(const std::string& ns) {
  using Definitions = void (*)(OpDefiner&);
  static const std::map<std::string, Definitions> known{
      {"quantized_decomposed", define_quantized_decomposed},
      {"torchao", define_torchao},
      {"export", define_export},
      {"transformers", define_transformers}};
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

std::string python_package_of(const std::string& ns) {
  static const std::map<std::string, std::string> packages{
      {"quantized_decomposed", "torch (torch.ao.quantization)"},
      {"export", "torch (torch.export)"},
      {"torchao", "torchao"},
      {"transformers", "transformers"},
      {"transformers_msa", "transformers"}};
  const auto it = packages.find(ns);
  return it == packages.end() ? "" : it->second;
}

}  // namespace modrec::pt2
