// A tensor stored in an archive entry as torch.save and torch.export.save write it: a view
// (sizes, strides, storage offset) of the entry's elements.
#pragma once
#include <ATen/core/Tensor.h>

#include <string>
#include <vector>

#include "files/archive.h"
#include "load/model_options.h"

namespace modrec::pt2 {

// Read (copied dense), or with Weights::meta a meta tensor of the same sizes and strides, nothing
// read. Throws Error(bad_input) naming the archive and `what` when the view reaches past the
// entry's elements.
at::Tensor stored_tensor(const Archive& archive, const ArchiveEntry& entry, at::ScalarType dtype,
                         const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                         int64_t storage_offset, const std::string& what, Weights weights);

}  // namespace modrec::pt2
