#include "tensors/write_tensors.h"

#include <cstdio>
#include <fstream>

#include <ATen/ATen.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include "tensors/npy.h"
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
  throw Error(Exit::write_failed, std::string("cannot save a ") + v.tagKind() + " as .pt", path,
              "only tensors and tuples/lists of tensors are saved");
}

}  // namespace

void write_file_atomic(const std::string& path, const std::string& bytes) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) {
      std::remove(tmp.c_str());
      throw Error(Exit::write_failed, "cannot write file", path,
                  "check that the folder exists, is writable and the disk is not full");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(Exit::write_failed, "cannot move the written file into place", path,
                "check that the path is not a directory and the folder is writable");
  }
}

void write_pt(const std::string& path, const c10::IValue& value) {
  std::vector<char> bytes = torch::jit::pickle_save(saveable(value, path));
  write_file_atomic(path, std::string(bytes.begin(), bytes.end()));
}

void write_npy(const std::string& path, const at::Tensor& t) { write_file_atomic(path, npy_bytes(t, path)); }

}  // namespace modrec
