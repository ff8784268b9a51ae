#include "summary/layer_params.h"

#include <algorithm>
#include <set>

#include "summary/text.h"

namespace modrec {

namespace {
struct NamedParam {
  std::string name;
  const Param* param;
};

// nn.Module.named_parameters(): own parameters first, then each child's, depth-first; a tied
// weight once, under the first name it is met by.
void collect(const ModuleTree& tree, int module, const std::string& prefix,
             std::set<const void*>& seen, std::vector<NamedParam>& out) {
  const Module& m = tree.modules[module];
  for (const Param& p : m.params)
    if (!p.tensor || seen.insert(p.tensor).second) out.push_back({prefix + p.name, &p});
  for (int child : m.children)
    collect(tree, child, prefix + tree.modules[child].var_name + ".", seen, out);
}

std::vector<NamedParam> named_parameters(const ModuleTree& tree, int module) {
  std::vector<NamedParam> out;
  std::set<const void*> seen;
  collect(tree, module, "", seen, out);
  return out;
}

// Shown as [in, out, k...] for a layer's own weight.
std::string param_kernel(const NamedParam& p) {
  Shape shape = p.param->shape;
  if (p.name == "weight" && shape.size() > 1) std::swap(shape[0], shape[1]);
  return text::list_repr(shape);
}

int64_t product(const Shape& shape, size_t begin, size_t end) {
  int64_t out = 1;
  for (size_t i = begin; i < std::min(end, shape.size()); ++i) out *= shape[i];
  return out;
}
}  // namespace

void count_params(const ModuleTree& tree, LayerRow& row, bool is_root) {
  row.num_params = row.trainable_params = row.param_bytes = 0;
  row.param_rows.clear();
  for (const NamedParam& p : named_parameters(tree, row.module)) {
    row.num_params += p.param->numel;
    row.param_bytes += p.param->numel * p.param->elem_bytes;
    if (p.param->trainable) row.trainable_params += p.param->numel;
    if (!is_root || p.name.find('.') == std::string::npos)
      row.param_rows.push_back({p.name, param_kernel(p), "├─" + text::with_commas(p.param->numel)});
  }
  if (!row.param_rows.empty()) row.param_rows.back().count.replace(0, 6, "└─");
}

int64_t call_macs(const ModuleTree& tree, int module, const Shape& out) {
  const bool conv = tree.modules[module].type.find("Conv") != std::string::npos;
  int64_t macs = 0;
  for (const NamedParam& p : named_parameters(tree, module)) {
    const int64_t n = p.param->numel;
    if (p.name == "weight" || p.name == "bias") {
      // A convolution's work scales with every output position, not with its channels.
      macs += conv ? n * product(out, 0, 1) * product(out, 2, out.size())
                   : (out.empty() ? 0 : out[0] * n);
    } else if (p.name.find("weight") != std::string::npos ||
               p.name.find("bias") != std::string::npos) {
      macs += product(out, 0, 2) * n;  // RNN weights: weight_ih_l0, bias_hh_l1
    }
  }
  return macs;
}

}  // namespace modrec
