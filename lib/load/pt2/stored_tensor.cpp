#include "load/pt2/stored_tensor.h"

#include <ATen/ATen.h>

#include <cstring>

#include "files/tensor_extent.h"
#include "util/error.h"

namespace modrec::pt2 {

at::Tensor stored_tensor(const Archive& archive, const ArchiveEntry& entry, at::ScalarType dtype,
                         const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                         int64_t storage_offset, const std::string& what, Weights weights) {
  const int64_t elem = static_cast<int64_t>(c10::elementSize(dtype));
  const int64_t elements = static_cast<int64_t>(entry.size) / elem;
  if (strides.size() != sizes.size())
    throw Error(Exit::bad_input, "export archive stores " + what + " without its strides",
                archive.path(), "save the program again with torch.export.save");
  if (!extent_fits(sizes, strides, storage_offset, elements))
    throw Error(Exit::bad_input,
                "export archive stores " + what + " in fewer bytes than its shape needs",
                archive.path(), "save the program again with torch.export.save");
  if (weights == Weights::meta)
    return at::empty({elements}, at::TensorOptions(dtype).device(at::kMeta))
        .as_strided(sizes, strides, storage_offset)
        .clone();
  const std::string bytes = archive.read(entry);
  at::Tensor storage = at::empty({elements}, dtype);
  std::memcpy(storage.data_ptr(), bytes.data(), static_cast<size_t>(storage.nbytes()));
  return storage.as_strided(sizes, strides, storage_offset).clone();
}

}  // namespace modrec::pt2
