// The tensors a torch.save'd dict names in its data.pkl, read by a small pickle machine instead
// of LibTorch's unpickler: no tensor is built, no storage read and no code of the file runs (its
// GLOBALs are names, never imported), so a checkpoint's table costs its pickle's bytes only
// (torch-free). Nothing the pickle holds is passed over unsaid: every tensor is read (a tensor
// subclass's inner tensors under its name), an object that holds tensors in a form modrec does
// not read refuses the file, naming it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "files/dtypes.h"

namespace modrec {

// One tensor as torch._utils._rebuild_tensor_v2/_v3 (or _rebuild_parameter around one) describes
// it: a view of a storage.
struct PickledTensor {
  std::string name;     // its keys from the top dict down, joined by '.': "model.fc.weight"
  std::string storage;  // the storage's key: archive entry data/<storage>
  DType dtype = DType::float32;
  int64_t storage_offset = 0;  // in elements
  std::vector<int64_t> shape, stride;
  // The tensor subclass it is an inner tensor of (torchao's Int8Tensor keeps qdata, scale and
  // zero_point), as the pickle names its class: "torchao.quantization.Int8Tensor"; "" for a
  // plain tensor.
  std::string subclass;
};

// A tensor subclass (torch._utils._rebuild_wrapper_subclass under _rebuild_from_type_v2, as
// torch.save writes torchao's quantized weights): the tensor it stands for, whose data are its
// inner tensors (PickledTensor::subclass), named "<name>.<attribute>": "fc1.weight.qdata".
struct PickledSubclass {
  std::string name;              // "fc1.weight"
  std::string type;              // "torchao.quantization.Int8Tensor"
  DType dtype = DType::float32;  // the outer tensor's, as torch reports it
  std::vector<int64_t> shape;
};

struct PickledState {
  std::vector<PickledTensor> tensors;  // in pickle order
  std::vector<PickledSubclass> subclasses;
  // Objects of classes modrec does not know that hold no tensor (argparse.Namespace, a numpy
  // scalar), "<class> at <name>": nothing of them is shown, and the caller says so.
  std::vector<std::string> passed_over;
};

// The tensors of the top-level dict, through the dicts, lists and tuples it holds, in pickle
// order; other values (ints, strings, torch.device) are passed over. Throws
// Error(bad_input, ..., `where`) when the pickle is malformed, uses an opcode outside what
// torch.save writes, is not a dict, names a storage of an unknown type, or holds a tensor inside
// an object modrec does not read (named with its path).
PickledState read_state_dict_pickle(const std::string& pickle, const std::string& where);

// The same of a pickle holding one tensor, plain or a subclass (a .pt2's weight stored pickled):
// its tensor named "", a subclass's inner tensors by attribute: "qdata".
PickledState read_tensor_pickle(const std::string& pickle, const std::string& where);

// Refuses a tensor file's data.pkl, before LibTorch's unpickler reads it, when its values nest
// deeper than torch.save's ever do (1,000) or hold themselves: LibTorch frees nested values
// recursively, so a file of 200,000 nested lists would overflow the stack. Also refuses what
// read_state_dict_pickle refuses as malformed. Throws Error(bad_input, "<subject> nests ...",
// `where`, `advice`).
void check_pickle_nesting(const std::string& pickle, const std::string& where,
                          const std::string& subject, const std::string& advice);

}  // namespace modrec
