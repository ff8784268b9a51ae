#include "load/pt2/program.h"

#include <utility>

namespace modrec::pt2 {
namespace {

using K = Argument::Kind;

// The schema's tags, with the kind each is read as; the tags modrec reads but does not run are
// `unsupported`, their argument keeping the tag.
const std::vector<std::pair<std::string, K>>& tags() {
  static const std::vector<std::pair<std::string, K>> known{
      {"as_none", K::none},
      {"as_tensor", K::tensor},
      {"as_tensors", K::tensors},
      {"as_optional_tensor", K::optional_tensor},
      {"as_optional_tensors", K::optional_tensors},
      {"as_int", K::int_},
      {"as_ints", K::ints},
      {"as_float", K::float_},
      {"as_floats", K::floats},
      {"as_bool", K::bool_},
      {"as_bools", K::bools},
      {"as_string", K::string},
      {"as_strings", K::strings},
      {"as_sym_int", K::sym_int},
      {"as_sym_ints", K::sym_ints},
      {"as_sym_float", K::sym_float},
      {"as_sym_bool", K::sym_bool},
      {"as_scalar_type", K::scalar_type},
      {"as_memory_format", K::memory_format},
      {"as_layout", K::layout},
      {"as_device", K::device},
      {"as_graph", K::graph},
      {"as_operator", K::op},
      {"as_sym_bools", K::unsupported},
      {"as_sym_floats", K::unsupported},
      {"as_custom_obj", K::unsupported},
      {"as_complex", K::unsupported},
      {"as_int_lists", K::unsupported},
      {"as_string_to_argument", K::unsupported},
  };
  return known;
}

}  // namespace

std::optional<Argument::Kind> kind_of_tag(const std::string& tag) {
  for (const auto& [name, kind] : tags())
    if (name == tag) return kind;
  return std::nullopt;
}

std::string tag_of(const Argument& argument) {
  if (argument.kind == K::unsupported) return argument.strings.at(0);
  for (const auto& [name, kind] : tags())
    if (kind == argument.kind) return name;
  return "?";
}

std::vector<std::string> value_names(const Argument& argument) {
  std::vector<std::string> out;
  for (const std::string& name : argument.names)
    if (!name.empty()) out.push_back(name);
  return out;
}

std::optional<CallSignature::Positional> CallSignature::positional() const {
  if (!in_spec) return std::nullopt;
  return Positional{in_spec->children[0].children.size(), leaf_count(in_spec->children[0])};
}

size_t leaf_count(const TreeSpec& spec) {
  if (spec.type == TreeSpec::Type::leaf) return 1;
  size_t n = 0;
  for (const TreeSpec& child : spec.children) n += leaf_count(child);
  return n;
}

}  // namespace modrec::pt2
