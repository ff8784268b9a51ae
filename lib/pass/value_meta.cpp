#include "pass/value_meta.h"

#include "tensor_files/dtype.h"

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

// torchinfo's nested_list_size(): first element of sequences, first value of dicts.
Size nested_size(const c10::IValue& v) {
  if (v.isTensor()) return of_tensor(v.toTensor());
  if (v.isTuple()) {
    const auto& e = v.toTupleRef().elements();
    return e.empty() ? Size{} : nested_size(e[0]);
  }
  if (v.isList()) {
    auto list = v.toListRef();
    return list.empty() ? Size{} : nested_size(list[0]);
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
  if (v.isTuple()) {
    const auto& e = v.toTupleRef().elements();
    return sequence_size(std::vector<c10::IValue>(e.begin(), e.end()));
  }
  if (v.isList()) return sequence_size(v.toListRef().vec());
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

c10::IValue rebuild(const c10::IValue& shape, const std::vector<at::Tensor>& tensors,
                    size_t& next) {
  if (shape.isTensor()) {
    const at::Tensor& t = tensors.at(next++);
    return t.defined() ? c10::IValue(t) : c10::IValue();
  }
  std::vector<c10::IValue> items;
  if (shape.isTuple())
    for (const auto& e : shape.toTupleRef().elements()) items.push_back(rebuild(e, tensors, next));
  else if (shape.isList())
    for (const auto& e : shape.toListRef()) items.push_back(rebuild(e, tensors, next));
  else if (shape.isGenericDict())
    for (const auto& item : shape.toGenericDict())
      items.push_back(rebuild(item.value(), tensors, next));
  else
    return shape;
  return c10::ivalue::Tuple::create(std::move(items));
}

// `v` with every leaf (a value that is no tuple, list or dict) replaced by fn(leaf). Lists and
// dicts keep their element types, or hold Any when `any_types` (fn may change a leaf's type).
c10::IValue map_leaves(const c10::IValue& v,
                       const std::function<c10::IValue(const c10::IValue&)>& fn, bool any_types) {
  if (v.isTuple()) {
    std::vector<c10::IValue> items;
    for (const auto& e : v.toTupleRef().elements()) items.push_back(map_leaves(e, fn, any_types));
    return c10::ivalue::Tuple::create(std::move(items));
  }
  if (v.isList()) {
    c10::impl::GenericList list(any_types ? c10::AnyType::get() : v.toList().elementType());
    for (const auto& e : v.toListRef()) list.push_back(map_leaves(e, fn, any_types));
    return list;
  }
  if (v.isGenericDict()) {
    auto src = v.toGenericDict();
    c10::impl::GenericDict dict(src.keyType(), any_types ? c10::AnyType::get() : src.valueType());
    for (const auto& item : src) dict.insert(item.key(), map_leaves(item.value(), fn, any_types));
    return dict;
  }
  return fn(v);
}

}  // namespace

c10::IValue map_tensors(const c10::IValue& v,
                        const std::function<at::Tensor(const at::Tensor&)>& fn) {
  return map_leaves(
      v,
      [&](const c10::IValue& leaf) {
        return leaf.isTensor() ? c10::IValue(fn(leaf.toTensor())) : leaf;
      },
      /*any_types=*/false);
}

c10::IValue rebuild_tensors(const c10::IValue& shape, const std::vector<at::Tensor>& tensors) {
  size_t next = 0;
  return rebuild(shape, tensors, next);
}

void flatten_tensors(const c10::IValue& value, std::vector<at::Tensor>& out) {
  if (value.isTensor()) {
    out.push_back(value.toTensor());
  } else if (value.isTuple()) {
    for (const auto& e : value.toTupleRef().elements()) flatten_tensors(e, out);
  } else if (value.isList()) {
    for (const auto& e : value.toListRef()) flatten_tensors(e, out);
  } else if (value.isGenericDict()) {
    for (const auto& item : value.toGenericDict()) flatten_tensors(item.value(), out);
  }
}

c10::IValue undefined_as_none(const c10::IValue& v) {
  // A List[Tensor] cannot hold None: the copy's lists and dicts hold Any.
  return map_leaves(
      v,
      [](const c10::IValue& leaf) {
        return leaf.isTensor() && !leaf.toTensor().defined() ? c10::IValue() : leaf;
      },
      /*any_types=*/true);
}

namespace {
// fn(at, leaf) for every value that is no tuple, list or dict (tensors included), depth-first.
void visit_leaves(const c10::IValue& v, const std::string& at,
                  const std::function<void(const std::string&, const c10::IValue&)>& fn) {
  const auto child = [&](const std::string& key) { return at.empty() ? key : at + "." + key; };
  if (v.isTuple() || v.isList()) {
    const auto items = v.isTuple() ? v.toTupleRef().elements().vec() : v.toListRef().vec();
    for (size_t i = 0; i < items.size(); ++i) visit_leaves(items[i], child(std::to_string(i)), fn);
  } else if (v.isGenericDict()) {
    for (const auto& item : v.toGenericDict())
      visit_leaves(item.value(),
                   child(item.key().isString() ? item.key().toStringRef() : item.key().tagKind()),
                   fn);
  } else {
    fn(at, v);
  }
}
}  // namespace

void for_each_non_tensor(const c10::IValue& value,
                         const std::function<void(const std::string&, const c10::IValue&)>& fn) {
  visit_leaves(value, "", [&](const std::string& at, const c10::IValue& leaf) {
    if (!leaf.isTensor()) fn(at, leaf);
  });
}

std::vector<std::string> tensor_places(const c10::IValue& value) {
  std::vector<std::string> places;
  visit_leaves(value, "", [&](const std::string& at, const c10::IValue& leaf) {
    if (leaf.isTensor()) places.push_back(at);
  });
  return places;
}

ValueMeta args_meta(const std::vector<c10::IValue>& args) {
  return make_meta(sequence_size(args), args);
}

ValueMeta result_meta(const c10::IValue& value) { return make_meta(value_size(value), {value}); }

}  // namespace modrec
