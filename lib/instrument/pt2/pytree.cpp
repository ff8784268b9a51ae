#include "instrument/pt2/pytree.h"

#include <optional>

namespace modrec::pt2 {
namespace {

using T = TreeSpec::Type;

// The value `spec` describes, its leaves from `next` on; nullopt where it holds a container
// modrec does not build.
std::optional<c10::IValue> build(const TreeSpec& spec, const std::vector<c10::IValue>& leaves,
                                 size_t& next) {
  if (spec.type == T::leaf) return leaves[next++];
  if (spec.type == T::none) return c10::IValue();
  if (spec.type == T::other) return std::nullopt;
  std::vector<c10::IValue> values;
  for (const TreeSpec& child : spec.children) {
    auto value = build(child, leaves, next);
    if (!value) return std::nullopt;
    values.push_back(*value);
  }
  if (spec.type == T::tuple) return c10::ivalue::Tuple::create(values);
  if (spec.type == T::list) {
    c10::impl::GenericList list(c10::AnyType::get());
    for (const auto& v : values) list.push_back(v);
    return list;
  }
  c10::impl::GenericDict dict(c10::StringType::get(), c10::AnyType::get());
  for (size_t i = 0; i < values.size(); ++i) dict.insert(spec.keys[i], values[i]);
  return dict;
}

}  // namespace

c10::IValue unflatten(const TreeSpec* spec, const std::vector<c10::IValue>& leaves) {
  if (spec && leaf_count(*spec) == leaves.size()) {
    size_t next = 0;
    if (auto value = build(*spec, leaves, next)) return *value;
  }
  if (leaves.size() == 1) return leaves[0];
  return c10::ivalue::Tuple::create(leaves);
}

}  // namespace modrec::pt2
