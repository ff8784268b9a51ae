#include "files/scalar_type.h"

namespace modrec {

at::ScalarType scalar_type(DType type) {
  switch (type) {
    case DType::float64:
      return at::kDouble;
    case DType::float32:
      return at::kFloat;
    case DType::float16:
      return at::kHalf;
    case DType::bfloat16:
      return at::kBFloat16;
    case DType::float8_e4m3fn:
      return at::kFloat8_e4m3fn;
    case DType::float8_e5m2:
      return at::kFloat8_e5m2;
    case DType::int64:
      return at::kLong;
    case DType::int32:
      return at::kInt;
    case DType::int16:
      return at::kShort;
    case DType::int8:
      return at::kChar;
    case DType::uint8:
      return at::kByte;
    case DType::uint16:
      return at::kUInt16;
    case DType::uint32:
      return at::kUInt32;
    case DType::uint64:
      return at::kUInt64;
    case DType::boolean:
      return at::kBool;
    case DType::complex64:
      return at::kComplexFloat;
    case DType::complex128:
      return at::kComplexDouble;
  }
  return at::ScalarType::Undefined;
}

std::optional<DType> dtype_of(at::ScalarType type) {
  for (const DTypeNames& n : dtype_table())
    if (scalar_type(n.type) == type) return n.type;
  return std::nullopt;
}

std::string dtype_name(at::ScalarType type) {
  const std::optional<DType> known = dtype_of(type);
  return known ? dtype_name(*known) : std::string(c10::getDtypeNames(type).first);
}

bool parse_dtype(const std::string& text, at::ScalarType& type) {
  DType known;
  if (!dtype_from_torch(text, known)) return false;
  type = scalar_type(known);
  return true;
}

}  // namespace modrec
