#include "instrument/pt2/pytree.h"

#include <optional>

namespace modrec::pt2 {
namespace {

using nlohmann::json;

size_t leaf_count(const json& spec) {
  if (spec.value("type", json()).is_null()) return 1;
  size_t n = 0;
  for (const json& child : spec.at("children_spec")) n += leaf_count(child);
  return n;
}

std::optional<c10::IValue> build(const json& spec, const std::vector<c10::IValue>& leaves,
                                 size_t& next);

std::optional<std::vector<c10::IValue>> children(const json& spec,
                                                 const std::vector<c10::IValue>& leaves,
                                                 size_t& next) {
  std::vector<c10::IValue> out;
  for (const json& child : spec.at("children_spec")) {
    auto value = build(child, leaves, next);
    if (!value) return std::nullopt;
    out.push_back(*value);
  }
  return out;
}

// A dict's keys: its context, a JSON list in a string; strings only.
std::optional<c10::IValue> dict(const json& spec, const std::vector<c10::IValue>& values) {
  const json keys = json::parse(spec.value("context", std::string("[]")));
  if (!keys.is_array() || keys.size() != values.size()) return std::nullopt;
  c10::impl::GenericDict out(c10::StringType::get(), c10::AnyType::get());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (!keys[i].is_string()) return std::nullopt;
    out.insert(keys[i].get<std::string>(), values[i]);
  }
  return out;
}

std::optional<c10::IValue> build(const json& spec, const std::vector<c10::IValue>& leaves,
                                 size_t& next) {
  const json type = spec.value("type", json());
  if (type.is_null()) return leaves[next++];
  auto values = children(spec, leaves, next);
  if (!values) return std::nullopt;
  if (type == "builtins.tuple") return c10::ivalue::Tuple::create(*values);
  if (type == "builtins.list") {
    c10::impl::GenericList list(c10::AnyType::get());
    for (const auto& v : *values) list.push_back(v);
    return list;
  }
  if (type == "builtins.dict" || type == "collections.OrderedDict") return dict(spec, *values);
  return std::nullopt;
}

}  // namespace

c10::IValue unflatten(const json& spec, const std::vector<c10::IValue>& leaves) {
  if (!spec.is_null() && leaf_count(spec) == leaves.size()) {
    size_t next = 0;
    if (auto value = build(spec, leaves, next)) return *value;
  }
  if (leaves.size() == 1) return leaves[0];
  return c10::ivalue::Tuple::create(leaves);
}

void flatten(const c10::IValue& value, std::vector<c10::IValue>& out) {
  if (value.isTuple()) {
    for (const auto& v : value.toTupleRef().elements()) flatten(v, out);
  } else if (value.isList()) {
    for (const c10::IValue v : value.toListRef()) flatten(v, out);
  } else if (value.isGenericDict()) {
    for (const auto& entry : value.toGenericDict()) flatten(entry.value(), out);
  } else {
    out.push_back(value);
  }
}

}  // namespace modrec::pt2
