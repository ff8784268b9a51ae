#include "load/pt2/pickled_weight.h"

#include <ATen/ATen.h>

#include <map>
#include <set>

#include "files/scalar_type.h"
#include "files/state_dict_pickle.h"
#include "load/pt2/stored_tensor.h"
#include "ops/quantized/subclass_inner.h"
#include "util/error.h"

namespace modrec::pt2 {
namespace {

// torchao 0.18's weight-only subclasses, whose inner tensors and dequantization modrec knows.
const std::set<std::string> kKnown = {"torchao.quantization.Int8Tensor",
                                      "torchao.quantization.IntxUnpackedToInt8Tensor",
                                      "torchao.quantization.Float8Tensor"};

// `t` repeated along each dimension where it is smaller than `sizes`: a per-block scale (one per
// row, one per group of columns) as large as the weight it scales.
at::Tensor expand_blocks(at::Tensor t, at::IntArrayRef sizes) {
  if (t.dim() != static_cast<int64_t>(sizes.size())) return {};
  for (int64_t d = 0; d < t.dim(); ++d) {
    if (t.size(d) == sizes[d]) continue;
    if (t.size(d) == 0 || sizes[d] % t.size(d)) return {};
    t = t.repeat_interleave(sizes[d] / t.size(d), d);
  }
  return t;
}

// torchao's dequantize of a weight-only subclass: (qdata - zero_point) * scale, block by block,
// in the outer dtype; an empty tensor when the inner tensors' shapes do not tile the weight's.
at::Tensor dequantized(const std::map<std::string, at::Tensor>& inner, at::ScalarType dtype,
                       at::IntArrayRef sizes) {
  const auto qdata = inner.find("qdata"), scale = inner.find("scale");
  if (qdata == inner.end() || scale == inner.end() || qdata->second.sizes() != sizes) return {};
  at::Tensor w = qdata->second.to(at::kFloat);
  if (const auto zero = inner.find("zero_point"); zero != inner.end()) {
    const at::Tensor z = expand_blocks(zero->second.to(at::kFloat), sizes);
    if (!z.defined()) return {};
    w = w - z;
  }
  const at::Tensor s = expand_blocks(scale->second.to(at::kFloat), sizes);
  if (!s.defined()) return {};
  return (w * s).to(dtype);
}

}  // namespace

at::Tensor read_pickled_weight(const Archive& archive, const ArchiveEntry& entry,
                               const std::string& fqn, Weights weights) {
  const Archive nested = archive.nested(entry);
  const ArchiveEntry* pickle = nested.find("data.pkl");
  auto damaged = [&](const std::string& what) {
    return Error(Exit::bad_input, "export archive stores " + fqn + " pickled: " + what,
                 archive.path(), "save the program again with torch.export.save");
  };
  if (!pickle) throw damaged("its torch.save archive has no data.pkl");
  const PickledState state = read_tensor_pickle(nested.read(*pickle), nested.path());
  std::map<std::string, at::Tensor> inner;
  for (const PickledTensor& t : state.tensors) {
    const ArchiveEntry* storage = nested.find("data/" + t.storage);
    if (!storage) throw damaged("its storage data/" + t.storage + " is missing");
    inner[t.name] = stored_tensor(nested, *storage, scalar_type(t.dtype), t.shape, t.stride,
                                  t.storage_offset, fqn + "." + t.name, weights);
  }
  if (state.subclasses.empty()) {
    if (!inner.count("")) throw damaged("its pickle holds no tensor");
    return inner.at("");
  }
  const PickledSubclass& sub = state.subclasses.back();
  if (state.subclasses.size() != 1 || !sub.name.empty() || !kKnown.count(sub.type))
    throw Error(Exit::bad_input,
                "export archive stores " + fqn + " as a tensor subclass modrec does not run (" +
                    sub.type + ")",
                archive.path(),
                "export the model after torchao.utils.unwrap_tensor_subclass(model), which "
                "stores its plain tensors");
  const at::ScalarType dtype = scalar_type(sub.dtype);
  at::Tensor outer = weights == Weights::meta
                         ? at::empty(sub.shape, at::TensorOptions(dtype).device(at::kMeta))
                         : dequantized(inner, dtype, sub.shape);
  if (!outer.defined())
    throw damaged("its inner tensors (qdata, scale, zero_point) do not tile its shape");
  attach_inner_tensors(outer, std::move(inner));
  return outer;
}

}  // namespace modrec::pt2
