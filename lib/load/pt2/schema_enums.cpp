#include "load/pt2/schema_enums.h"

#include <map>

namespace modrec::pt2 {

// torch/_export/serde/schema.py, class ScalarType (SCHEMA_VERSION 8.20).
std::optional<c10::ScalarType> scalar_type(int schema_dtype) {
  using S = c10::ScalarType;
  static const std::map<int, S> types{{1, S::Byte},
                                      {2, S::Char},
                                      {3, S::Short},
                                      {4, S::Int},
                                      {5, S::Long},
                                      {6, S::Half},
                                      {7, S::Float},
                                      {8, S::Double},
                                      {9, S::ComplexHalf},
                                      {10, S::ComplexFloat},
                                      {11, S::ComplexDouble},
                                      {12, S::Bool},
                                      {13, S::BFloat16},
                                      {28, S::UInt16},
                                      {29, S::Float8_e4m3fn},
                                      {30, S::Float8_e5m2},
                                      {31, S::Float8_e4m3fnuz},
                                      {32, S::Float8_e5m2fnuz},
                                      {33, S::Float8_e8m0fnu},
                                      {34, S::UInt32},
                                      {35, S::UInt64}};
  auto it = types.find(schema_dtype);
  if (it == types.end()) return std::nullopt;
  return it->second;
}

// schema.py, class MemoryFormat.
std::optional<c10::MemoryFormat> memory_format(int schema_format) {
  using M = c10::MemoryFormat;
  switch (schema_format) {
    case 1:
      return M::Contiguous;
    case 2:
      return M::ChannelsLast;
    case 3:
      return M::ChannelsLast3d;
    case 4:
      return M::Preserve;
    default:
      return std::nullopt;
  }
}

// schema.py, class Layout.
std::optional<c10::Layout> layout(int schema_layout) {
  using L = c10::Layout;
  switch (schema_layout) {
    case 1:
      return L::Sparse;
    case 2:
      return L::SparseCsr;
    case 3:
      return L::SparseCsc;
    case 4:
      return L::SparseBsr;
    case 5:
      return L::SparseBsc;
    case 6:
      return L::Mkldnn;
    case 7:
      return L::Strided;
    default:
      return std::nullopt;
  }
}

}  // namespace modrec::pt2
