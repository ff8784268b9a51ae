#include "tensors/write_tensors.h"

#include <ATen/ATen.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include "tensors/npy.h"
#include "util/atomic_file.h"
#include "util/error.h"

namespace modrec {

namespace {

c10::IValue saveable(const c10::IValue& v, const std::string& path) {
  if (v.isTensor()) return v.toTensor().detach().to(at::kCPU).clone(at::MemoryFormat::Contiguous);
  if (v.isTuple()) {
    std::vector<c10::IValue> items;
    for (const auto& item : v.toTupleRef().elements()) items.push_back(saveable(item, path));
    return c10::ivalue::Tuple::create(std::move(items));
  }
  if (v.isTensorList()) {
    c10::List<at::Tensor> out;
    for (const at::Tensor& t : v.toTensorVector()) out.push_back(saveable(t, path).toTensor());
    return out;
  }
  if (v.isList()) {
    c10::impl::GenericList out(c10::AnyType::get());
    for (const auto& item : v.toListRef()) out.push_back(saveable(item, path));
    return out;
  }
  if (v.isGenericDict() && v.toGenericDict().keyType()->kind() == c10::TypeKind::StringType) {
    c10::impl::GenericDict out(c10::StringType::get(), c10::AnyType::get());
    for (const auto& item : v.toGenericDict()) out.insert(item.key(), saveable(item.value(), path));
    return out;
  }
  if (v.isNone()) return v;  // an argument or a gradient that is absent; torch.load gives None
  throw Error(Exit::write_failed, std::string("cannot save a ") + v.tagKind() + " as .pt", path,
              "only tensors, None and tuples/lists/str-keyed dicts of them are saved");
}

}  // namespace

void write_pt(const std::string& path, const c10::IValue& value) {
  std::vector<char> bytes = torch::jit::pickle_save(saveable(value, path));
  write_file_atomic(path, std::string(bytes.begin(), bytes.end()));
}

void write_npy(const std::string& path, const at::Tensor& t) { write_file_atomic(path, npy_bytes(t, path)); }

}  // namespace modrec
