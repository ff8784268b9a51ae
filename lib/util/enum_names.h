// The names an option's values have on the command line and in output files, for enums parsed
// once at the edge (the CLI maps names to values with them; writers print the names back).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace modrec {

template <class E>
using EnumNames = std::vector<std::pair<std::string, E>>;

// The value named `name`; nullptr when none is.
template <class E>
const E* value_named(const EnumNames<E>& names, const std::string& name) {
  for (const auto& [n, v] : names)
    if (n == name) return &v;
  return nullptr;
}

template <class E>
std::vector<std::string> names_of(const EnumNames<E>& names) {
  std::vector<std::string> out;
  for (const auto& entry : names) out.push_back(entry.first);
  return out;
}

template <class E>
const std::string& name_of(const EnumNames<E>& names, E value) {
  for (const auto& [name, v] : names)
    if (v == value) return name;
  return names.front().first;  // unreachable for a complete table
}

}  // namespace modrec
