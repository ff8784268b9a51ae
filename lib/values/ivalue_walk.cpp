#include "values/ivalue_walk.h"

namespace modrec {
namespace {

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

}  // namespace

std::vector<c10::IValue> items_of(const c10::IValue& v) {
  return v.isTuple() ? v.toTupleRef().elements().vec() : v.toListRef().vec();
}

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
  for_each_leaf(value, [&](const c10::IValue& leaf) {
    if (leaf.isTensor()) out.push_back(leaf.toTensor());
  });
}

void flatten_values(const c10::IValue& value, std::vector<c10::IValue>& out) {
  for_each_leaf(value, [&](const c10::IValue& leaf) { out.push_back(leaf); });
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
    const auto items = items_of(v);
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

}  // namespace modrec
