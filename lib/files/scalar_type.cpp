#include "files/scalar_type.h"

#include <utility>

namespace modrec {

namespace {
// Canonical names first: dtype_name returns the first name listed for a type.
const std::pair<const char*, at::ScalarType> kNames[] = {
    {"float32", at::kFloat},
    {"float64", at::kDouble},
    {"float16", at::kHalf},
    {"bfloat16", at::kBFloat16},
    {"int64", at::kLong},
    {"int32", at::kInt},
    {"int16", at::kShort},
    {"int8", at::kChar},
    {"uint8", at::kByte},
    {"bool", at::kBool},
    {"complex64", at::kComplexFloat},
    {"complex128", at::kComplexDouble},
    {"float", at::kFloat},
    {"double", at::kDouble},
    {"half", at::kHalf},
    {"long", at::kLong},
    {"int", at::kInt},
    {"short", at::kShort},
};
}  // namespace

std::string dtype_name(at::ScalarType type) {
  for (const auto& [name, t] : kNames)
    if (t == type) return name;
  return c10::toString(type);
}

bool parse_dtype(const std::string& text, at::ScalarType& type) {
  for (const auto& [name, t] : kNames)
    if (text == name) {
      type = t;
      return true;
    }
  return false;
}

}  // namespace modrec
