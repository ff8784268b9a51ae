// A .pt2's weight stored pickled ("use_pickle": true in its weights config): torch.export.save
// writes a tensor subclass (torchao's quantized weights) as a whole torch.save archive inside the
// archive. It is read by modrec's own pickle reader (files/state_dict_pickle.h: nothing of it
// runs), its inner tensors built from that archive's storages, and attached to the outer tensor
// for export::access_subclass_inner_tensor, the operator the program reads them with.
#pragma once
#include <ATen/core/Tensor.h>

#include <string>

#include "files/archive.h"
#include "load/model_options.h"

namespace modrec::pt2 {

// The weight `fqn` stored pickled in `entry`: a plain tensor as it is; one of torchao's
// weight-only subclasses (Int8Tensor, IntxUnpackedToInt8Tensor, Float8Tensor) as a tensor of its
// outer dtype and shape holding the weight it stands for (its qdata dequantized, as torchao's
// dequantize computes it: (qdata - zero_point) * scale, block by block), its inner tensors
// attached (ops/quantized/subclass_inner.h). With Weights::meta, meta tensors of the same sizes.
// Throws Error(bad_input) naming the archive: a damaged inner archive or pickle, or a subclass
// modrec does not know (named, with what to do).
at::Tensor read_pickled_weight(const Archive& archive, const ArchiveEntry& entry,
                               const std::string& fqn, Weights weights);

}  // namespace modrec::pt2
