#include "pass/value_meta.h"

#include "files/scalar_type.h"
#include "values/ivalue_walk.h"

namespace modrec {
namespace {

struct Size {
  Shape shape;
  int64_t elem_bytes = 0;
};

// An undefined tensor (a fast path's absent result, e.g. MultiheadAttention's weights) is what
// Python sees as None: no shape.
Size of_tensor(const at::Tensor& t) {
  if (!t.defined()) return {};
  return {t.sizes().vec(), static_cast<int64_t>(t.element_size())};
}

// torchinfo's nested_list_size(): first element of sequences, first value of dicts. Its own
// descent, not a walk of values/ivalue_walk.h's: it follows one item a level and enters an object.
Size nested_size(const c10::IValue& v) {
  if (v.isTensor()) return of_tensor(v.toTensor());
  if (v.isTuple() || v.isList()) {
    const auto items = items_of(v);
    return items.empty() ? Size{} : nested_size(items[0]);
  }
  if (v.isGenericDict()) {
    auto dict = v.toGenericDict();
    return dict.empty() ? Size{} : nested_size(dict.begin()->value());
  }
  // torchinfo sizes an object by its `tensors` attribute (torchvision's ImageList)
  if (v.isObject() && v.toObjectRef().type()->hasAttribute("tensors"))
    return nested_size(v.toObjectRef().getAttr("tensors"));
  return {};
}

// torchinfo's calculate_size() on a tuple/list: a leading tensor is taken as is, else nested.
Size sequence_size(const std::vector<c10::IValue>& items) {
  if (items.empty()) return {};
  if (items[0].isTensor()) return of_tensor(items[0].toTensor());
  return nested_size(items[0]);
}

// calculate_size() on a dict takes its last value.
Size value_size(const c10::IValue& v) {
  if (v.isNone()) return {};
  if (v.isTensor()) return of_tensor(v.toTensor());
  if (v.isGenericDict()) {
    c10::IValue last;
    for (const auto& item : v.toGenericDict()) last = item.value();
    return nested_size(last);
  }
  if (v.isTuple() || v.isList()) return sequence_size(items_of(v));
  return {};
}

ValueMeta make_meta(const Size& size, const std::vector<c10::IValue>& values) {
  ValueMeta meta{size.shape, size.elem_bytes, {}};
  std::vector<at::Tensor> tensors;
  for (const auto& v : values) flatten_tensors(v, tensors);
  for (const auto& t : tensors)
    if (t.defined())
      meta.tensors.push_back(
          {t.sizes().vec(), dtype_name(t.scalar_type()), static_cast<int64_t>(t.element_size())});
  return meta;
}

}  // namespace

ValueMeta args_meta(const std::vector<c10::IValue>& args) {
  return make_meta(sequence_size(args), args);
}

ValueMeta result_meta(const c10::IValue& value) { return make_meta(value_size(value), {value}); }

}  // namespace modrec
