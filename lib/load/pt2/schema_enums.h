// The export schema's enums mapped to LibTorch's, explicitly: the schema numbers its own
// ScalarType (FLOAT = 7, BFLOAT16 = 13, UINT16 = 28) and Layout (Strided = 7), unlike c10's.
#pragma once
#include <c10/core/Layout.h>
#include <c10/core/MemoryFormat.h>
#include <c10/core/ScalarType.h>

#include <optional>

namespace modrec::pt2 {

// nullopt for UNKNOWN and numbers this schema version does not define.
std::optional<c10::ScalarType> scalar_type(int schema_dtype);
// nullopt for Unknown and numbers this schema version does not define.
std::optional<c10::MemoryFormat> memory_format(int schema_format);
// nullopt for Unknown and numbers this schema version does not define.
std::optional<c10::Layout> layout(int schema_layout);
// The schema's Layout number of a dense tensor.
constexpr int kStridedLayout = 7;

}  // namespace modrec::pt2
