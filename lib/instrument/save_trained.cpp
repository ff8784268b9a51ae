#include "instrument/save_trained.h"

#include <filesystem>
#include <unordered_map>

#include "util/error.h"

namespace modrec {
namespace {

// Every tensor attribute of every module, on the CPU and no longer shared with the model that
// trained (which may be on another device); each a leaf that requires grad as its original did.
void copy_tensors_to_cpu(const torch::jit::Module& root) {
  std::unordered_map<const c10::TensorImpl*, at::Tensor> copies;
  for (const auto& named : root.named_modules()) {
    torch::jit::Module module = named.value;
    for (const auto& attribute : module.named_attributes(/*recurse=*/false)) {
      if (!attribute.value.isTensor()) continue;
      const at::Tensor& tensor = attribute.value.toTensor();
      if (!tensor.defined()) continue;
      auto [it, added] = copies.try_emplace(tensor.unsafeGetTensorImpl());
      if (added)
        it->second = tensor.detach()
                         .to(at::kCPU, /*non_blocking=*/false, /*copy=*/true)
                         .requires_grad_(tensor.requires_grad());
      module.setattr(attribute.name, it->second);
    }
  }
}

}  // namespace

void save_trained_model(torch::jit::Module as_loaded, bool training, const std::string& out) {
  copy_tensors_to_cpu(as_loaded);
  as_loaded.train(training);
  const std::string temporary = out + ".modrec-partial";
  try {
    as_loaded.save(temporary);
    std::filesystem::rename(temporary, out);
  } catch (const std::exception& e) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    throw Error(Exit::write_failed, "cannot save the trained model: " + first_line(e.what()), out,
                "give --save-model a path in a writable directory");
  }
}

}  // namespace modrec
