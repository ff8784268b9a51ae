// Importing a TorchScript archive with its tensors on the meta device (Weights::meta).
// TorchScript compiles a model's code as it imports it, and the compiler's cleanup pools equal
// tensor constants (a traced or frozen model's constants.pkl): ConstantPooling compares them with
// aten::equal, which has no meta kernel. The import of such a model then failed on the meta
// device, and summary read its weights. While a MetaImport lives, aten::equal of meta tensors
// answers false: equal constants stay two constants, which computes the same. Scoped to the
// import: a model's own torch.equal on the meta device still fails, and that pass falls back to
// the weights (jobs/session.h, pass_on_shapes).
#pragma once
#include <memory>

namespace torch {
class Library;
}

namespace modrec {

class MetaImport {
 public:
  MetaImport();  // registers the kernel; the destructor removes it
  ~MetaImport();
  MetaImport(const MetaImport&) = delete;
  MetaImport& operator=(const MetaImport&) = delete;

 private:
  std::unique_ptr<torch::Library> library_;
};

}  // namespace modrec
