#include "files/scalar_type.h"

#include <doctest/doctest.h>

#include <string>

using namespace modrec;

// LibTorch's own table (c10::getDtypeNames: the names Python's torch module gives each dtype,
// and c10::elementSize) against modrec's one table, row by row.
TEST_CASE("every dtype's names and size are LibTorch's") {
  for (const DTypeNames& row : dtype_table()) {
    const at::ScalarType type = scalar_type(row.type);
    const std::string name(c10::getDtypeNames(type).first), alias(c10::getDtypeNames(type).second);
    CAPTURE(name);
    CHECK(std::string(row.torch) == name);
    CHECK(row.bytes == static_cast<int>(c10::elementSize(type)));
    CHECK(dtype_of(type) == row.type);
    at::ScalarType parsed = at::kFloat;
    if (!alias.empty()) CHECK((parse_dtype(alias, parsed) && parsed == type));
    CHECK((parse_dtype(row.torch, parsed) && parsed == type));
  }
}

TEST_CASE("dtype_name gives torch's names") {
  CHECK(dtype_name(at::kFloat) == "float32");
  CHECK(dtype_name(at::kLong) == "int64");
  CHECK(dtype_name(at::kBFloat16) == "bfloat16");
  CHECK(dtype_name(at::kHalf) == "float16");
  CHECK(dtype_name(at::kBool) == "bool");
  CHECK(dtype_name(at::kByte) == "uint8");
  CHECK(dtype_name(at::kFloat8_e4m3fn) == "float8_e4m3fn");
  CHECK(dtype_name(at::kQInt8) == "qint8");  // outside the table: LibTorch's name
  CHECK_FALSE(dtype_of(at::kQInt8));
}

TEST_CASE("parse_dtype refuses names torch does not give") {
  at::ScalarType type = at::kFloat;
  CHECK_FALSE(parse_dtype("float33", type));
  CHECK_FALSE(parse_dtype("F32", type));  // safetensors' name, not torch's
  CHECK_FALSE(parse_dtype("", type));
  CHECK((type == at::kFloat));
}
