// models/<name>.json read into a Program: only the parts modrec uses, by the schema's field names.
#pragma once
#include <nlohmann/json.hpp>

#include "load/pt2/program.h"

namespace modrec::pt2 {

// The schema major version this reader knows (torch 2.8 to 2.14 write 8.x); torch's own reader
// refuses another major too.
constexpr int kSchemaMajor = 8;

// One TensorMeta of tensor_values or of a weights config.
TensorMeta tensor_meta(const nlohmann::json& meta);

// Throws nlohmann::json's exceptions on a missing or mistyped field, Error(bad_input) naming
// `file` on another schema major version.
Program parse_program(const nlohmann::json& doc, const std::string& file);

}  // namespace modrec::pt2
