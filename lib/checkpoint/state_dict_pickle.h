// The tensors a torch.save'd dict names in its data.pkl, read by a small pickle machine instead
// of LibTorch's unpickler: no tensor is built and no storage read, so a checkpoint's table costs
// its pickle's bytes only (torch-free).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint/dtypes.h"

namespace modrec {

// One tensor as torch._utils._rebuild_tensor_v2/_v3 (or _rebuild_parameter around one) describes
// it: a view of a storage.
struct PickledTensor {
  std::string name;     // its keys from the top dict down, joined by '.': "model.fc.weight"
  std::string storage;  // the storage's key: archive entry data/<storage>
  DType dtype = DType::float32;
  int64_t storage_offset = 0;  // in elements
  std::vector<int64_t> shape, stride;
};

// The tensors of every dict reachable from the top-level dict through dicts, in pickle order;
// other values (ints, strings, lists such as an optimizer's param_groups) are passed over.
// Throws Error(bad_input, ..., `where`) when the pickle is malformed, uses an opcode outside
// what torch.save writes, is not a dict, or names a storage of an unknown type.
std::vector<PickledTensor> read_state_dict_pickle(const std::string& pickle,
                                                  const std::string& where);

}  // namespace modrec
