#include "load/pt2/schema_enums.h"

#include <map>

namespace modrec::pt2 {
namespace {

template <class T>
std::optional<T> find_in(const std::map<int, T>& table, int number) {
  auto it = table.find(number);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

}  // namespace

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
  return find_in(types, schema_dtype);
}

// schema.py, class MemoryFormat.
std::optional<c10::MemoryFormat> memory_format(int schema_format) {
  using M = c10::MemoryFormat;
  static const std::map<int, M> formats{
      {1, M::Contiguous}, {2, M::ChannelsLast}, {3, M::ChannelsLast3d}, {4, M::Preserve}};
  return find_in(formats, schema_format);
}

// schema.py, class Layout.
std::optional<c10::Layout> layout(int schema_layout) {
  using L = c10::Layout;
  static const std::map<int, L> layouts{{1, L::Sparse},    {2, L::SparseCsr}, {3, L::SparseCsc},
                                        {4, L::SparseBsr}, {5, L::SparseBsc}, {6, L::Mkldnn},
                                        {7, L::Strided}};
  return find_in(layouts, schema_layout);
}

}  // namespace modrec::pt2
