#include "load/executorch/pte_method.h"

namespace modrec {
namespace {

PteValue value(const ModrecEtTensor& t) {
  if (t.dtype < 0) return {};
  return {t.dtype, std::vector<int64_t>(t.sizes, t.sizes + t.dim)};
}

}  // namespace

PteMethod pte_method(const ModrecEtMethod& method) {
  PteMethod out{method.instructions, {}, {}};
  for (size_t i = 0; i < method.inputs; ++i) out.inputs.push_back(value(method.values[i]));
  for (size_t i = 0; i < method.outputs; ++i)
    out.outputs.push_back(value(method.values[method.inputs + i]));
  return out;
}

}  // namespace modrec
