#include "tensor_files/write_tensors.h"

#include <ATen/ATen.h>
#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/export.h>
#include <torch/csrc/jit/serialization/pickler.h>

#include <sstream>

#include "tensor_files/npy.h"
#include "util/atomic_file.h"
#include "util/error.h"
#include "values/ivalue_walk.h"

namespace modrec {

namespace {

// A leaf of the value as torch.load gives it back: tensors as contiguous CPU clones, None (an
// absent argument or gradient) and plain values (a call's flags and sizes) as they are, anything
// else (a device, a dtype, an object) as TorchScript prints it.
c10::IValue saveable_leaf(const c10::IValue& v) {
  if (v.isTensor()) return v.toTensor().detach().to(at::kCPU).clone(at::MemoryFormat::Contiguous);
  if (v.isNone() || v.isBool() || v.isInt() || v.isDouble() || v.isString()) return v;
  std::ostringstream text;
  text << v;
  return text.str();
}

// What torch.save writes (torch::jit::pickle_save, less its aggregate type tags): pickle_save tags
// every list and dict with torch.jit._pickle.restore_type_tag, a function torch.load's default
// weights_only mode (PyTorch >= 2.6) refuses to call.
std::string torch_save_bytes(const c10::IValue& value) {
  std::string pickled;
  torch::jit::Pickler pickler([&](const char* bytes, size_t n) { pickled.append(bytes, n); },
                              nullptr, nullptr, nullptr, nullptr, /*tag_aggregates=*/false);
  pickler.protocol();
  pickler.pushIValue(value);
  pickler.stop();
  std::string archive;
  caffe2::serialize::PyTorchStreamWriter writer([&](const void* bytes, size_t n) {
    archive.append(static_cast<const char*>(bytes), n);
    return n;
  });
  torch::jit::writeArchiveAndTensors("data", pickled.data(), pickled.size(), pickler.tensorData(),
                                     writer);
  writer.writeEndOfFile();
  return archive;
}

}  // namespace

void write_pt(const std::string& path, const c10::IValue& value) {
  // Every list and dict as one of Any: pickle then writes a plain one. A typed one (List[Tensor],
  // List[int]) is written with torch.jit._pickle's build functions, which torch.load's default
  // weights_only mode (PyTorch >= 2.6) refuses to call.
  const c10::IValue saveable = map_leaves(value, saveable_leaf, /*any_types=*/true);
  write_file_atomic(path, torch_save_bytes(saveable));
}

void write_npy(const std::string& path, const at::Tensor& t) {
  write_file_atomic(path, npy_bytes(t, path));
}

}  // namespace modrec
