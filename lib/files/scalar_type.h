// Names of tensor element types, as Python prints them (torch.float32 -> "float32").
#pragma once
#include <string>

#include <c10/core/ScalarType.h>

namespace modrec {

// torch's name without "torch.": "float32", "int64", "bfloat16", "bool", ...
std::string dtype_name(at::ScalarType type);
// Accepts torch's names and aliases (float, double, half, long, int, ...); false when unknown.
bool parse_dtype(const std::string& text, at::ScalarType& type);

}  // namespace modrec
