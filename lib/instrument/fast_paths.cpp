#include "instrument/fast_paths.h"

namespace modrec {
namespace {

constexpr const char* kSwitch = "activation_relu_or_gelu";

bool is_encoder_layer(const torch::jit::Module& m) {
  const auto name = m.type()->name();
  // Scripting may mangle the qualified name
  // (...transformer.___torch_mangle_3.TransformerEncoderLayer).
  return name && name->name() == "TransformerEncoderLayer" &&
         name->qualifiedName().find("torch.nn.modules.transformer") != std::string::npos;
}

}  // namespace

std::vector<std::string> leave_fast_paths(torch::jit::Module& root) {
  std::vector<std::string> changed;
  for (const auto& named : root.named_modules()) {
    torch::jit::Module m = named.value;
    if (!is_encoder_layer(m) || !m.hasattr(kSwitch) || !m.attr(kSwitch).isInt()) continue;
    m.setattr(kSwitch, int64_t(0));
    changed.push_back(named.name);
  }
  return changed;
}

}  // namespace modrec
