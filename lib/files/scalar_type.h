// LibTorch's at::ScalarType for the element types of files/dtypes.h, the one table of dtype names
// and sizes: a run-time tensor's dtype named as Python prints it (torch.float32 -> "float32"), and
// a dtype given by name (--input-size 2x12:long).
#pragma once
#include <optional>
#include <string>

#include <c10/core/ScalarType.h>

#include "files/dtypes.h"

namespace modrec {

at::ScalarType scalar_type(DType type);
// nullopt for a type outside the table (complex32, qint8, float8_e4m3fnuz, ...).
std::optional<DType> dtype_of(at::ScalarType type);

// torch's name without "torch.": "float32", "int64", "bfloat16", "bool", ...; LibTorch's name
// ("qint8") for a type outside the table.
std::string dtype_name(at::ScalarType type);
// Accepts torch's names and Python's aliases (float, double, half, long, int, ...); false when
// unknown.
bool parse_dtype(const std::string& text, at::ScalarType& type);

}  // namespace modrec
