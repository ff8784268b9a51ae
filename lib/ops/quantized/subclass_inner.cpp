// export:: as torch/export/custom_ops.py defines it, for the tensors attach_inner_tensors knows:
// CompositeImplicitAutograd, so that autograd sees the inner tensors as they are (a subclass's
// attributes, no gradient through the lookup).
#include "ops/quantized/subclass_inner.h"

#include <c10/util/intrusive_ptr.h>

#include <mutex>

#include "ops/quantized/quantized_kernels.h"

namespace modrec::pt2 {
namespace {

struct Attached {
  c10::weak_intrusive_ptr<c10::TensorImpl> outer;  // the key's owner, to tell a reused address
  std::map<std::string, at::Tensor> inner;
};

std::mutex& lock() {
  static std::mutex m;
  return m;
}

std::map<const c10::TensorImpl*, Attached>& attached() {
  static std::map<const c10::TensorImpl*, Attached> map;
  return map;
}

at::Tensor access_subclass_inner_tensor(const at::Tensor& src, c10::string_view attr) {
  std::lock_guard<std::mutex> guard(lock());
  const auto it = attached().find(src.unsafeGetTensorImpl());
  const bool alive =
      it != attached().end() && it->second.outer.lock().get() == src.unsafeGetTensorImpl();
  TORCH_CHECK(alive, "access_subclass_inner_tensor: the tensor is no tensor subclass modrec read");
  const auto inner = it->second.inner.find(std::string(attr));
  TORCH_CHECK(inner != it->second.inner.end(), "'", attr, "' is no inner tensor of the subclass");
  return inner->second;
}

}  // namespace

void attach_inner_tensors(const at::Tensor& outer, std::map<std::string, at::Tensor> inner) {
  std::lock_guard<std::mutex> guard(lock());
  std::erase_if(attached(), [](const auto& entry) { return entry.second.outer.expired(); });
  attached().insert_or_assign(
      outer.unsafeGetTensorImpl(),
      Attached{c10::weak_intrusive_ptr<c10::TensorImpl>(outer.getIntrusivePtr()),
               std::move(inner)});
}

void define_export(OpDefiner& ops) {
  ops.define("access_subclass_inner_tensor(Tensor src_subclass_tensor, str attr) -> Tensor",
             c10::DispatchKey::CompositeImplicitAutograd, access_subclass_inner_tensor);
}

}  // namespace modrec::pt2
