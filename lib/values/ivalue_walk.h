// Walking a value (c10::IValue: tensors inside tuples, lists and dicts): its tensors and other
// leaves flattened, mapped and put back, each with its place. The one home of these walks, for
// the rows (pass/value_meta.h), the recordings and the tensor files they write (tensor_files/),
// and a .pt2 program's outputs (instrument/pt2). Below files/, whose check of a loaded value's
// storages walks objects too and keeps its own walk (files/storage_extents.cpp).
#pragma once
#include <ATen/core/ivalue.h>

#include <functional>
#include <string>
#include <vector>

namespace modrec {

// The items of a tuple or a list, in order.
std::vector<c10::IValue> items_of(const c10::IValue& tuple_or_list);

// `value` with every leaf (a value that is no tuple, list or dict) replaced by fn(leaf),
// depth-first. Tuples stay tuples; lists and dicts keep their element types, or hold Any when
// `any_types` (fn may change a leaf's type).
c10::IValue map_leaves(const c10::IValue& value,
                       const std::function<c10::IValue(const c10::IValue&)>& fn, bool any_types);

// `value` with every undefined tensor replaced by None, as Python would see it: what a recording
// keeps. (The model itself continues with its own value, whose types say Tensor.)
c10::IValue undefined_as_none(const c10::IValue& value);

// Calls fn(at, leaf) for every value inside `value` that is not a tensor nor a container (None,
// bool, int, float, str, ...), depth-first; `at` is its place, indices and dict keys joined by
// '.' ("2" is a call's third argument; "" the value itself).
void for_each_non_tensor(const c10::IValue& value,
                         const std::function<void(const std::string&, const c10::IValue&)>& fn);

// The place of every tensor inside `value`, in flatten_tensors' order, as for_each_non_tensor
// writes places ("1.0": value[1][0]; "" for a lone tensor).
std::vector<std::string> tensor_places(const c10::IValue& value);

// fn(leaf) for every value inside `value` that is no tuple, list or dict (tensors, None, numbers,
// strings), depth-first, dicts by their values in insertion order: torch.utils._pytree's order.
template <class Fn>
void for_each_leaf(const c10::IValue& value, const Fn& fn) {
  if (value.isTuple()) {
    for (const auto& e : value.toTupleRef().elements()) for_each_leaf(e, fn);
  } else if (value.isList()) {
    for (const c10::IValue e : value.toListRef()) for_each_leaf(e, fn);
  } else if (value.isGenericDict()) {
    for (const auto& item : value.toGenericDict()) for_each_leaf(item.value(), fn);
  } else {
    fn(value);
  }
}

// Every tensor inside `value` (tuples, lists, dict values, depth-first).
void flatten_tensors(const c10::IValue& value, std::vector<at::Tensor>& out);
// Every leaf inside `value`, None included, in for_each_leaf's order: a higher-order operator's
// operands as its subgraph's inputs take them.
void flatten_values(const c10::IValue& value, std::vector<c10::IValue>& out);

// `value` with each tensor replaced by fn(tensor), in flatten_tensors' order; tuples, typed lists
// and dicts keep their types, so TorchScript code downstream accepts the result.
c10::IValue map_tensors(const c10::IValue& value,
                        const std::function<at::Tensor(const at::Tensor&)>& fn);

// The inverse of flatten_tensors: `shape` with its tensors replaced, in flatten_tensors' order, by
// `tensors` (undefined ones by None). Lists and dicts come back as tuples of their values.
c10::IValue rebuild_tensors(const c10::IValue& shape, const std::vector<at::Tensor>& tensors);

}  // namespace modrec
