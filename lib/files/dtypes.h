// The element types modrec knows, its one table of them: their names (torch's "bfloat16" and
// Python's aliases, safetensors' "BF16", torch.save's BFloat16Storage) and sizes, and a
// checkpoint's values widened to float or double a chunk at a time (torch-free: checkpoint/ reads
// it; files/scalar_type.h maps each type to LibTorch's at::ScalarType).
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace modrec {

enum class DType {
  float64,
  float32,
  float16,
  bfloat16,
  float8_e4m3fn,
  float8_e5m2,
  int64,
  int32,
  int16,
  int8,
  uint8,
  uint16,
  uint32,
  uint64,
  boolean,
  complex64,
  complex128,
};

struct DTypeNames {
  DType type;
  const char* torch;  // torch's name without "torch.": "bfloat16"
  // safetensors' header name ("BF16") and torch.save's typed storage class ("BFloat16Storage");
  // nullptr for the complex types, which no checkpoint modrec reads holds: widen has no real
  // value for them.
  const char* safetensors;
  const char* storage;
  int bytes;
};

const DTypeNames& names_of(DType type);
std::span<const DTypeNames> dtype_table();
inline const char* dtype_name(DType type) { return names_of(type).torch; }
inline int dtype_bytes(DType type) { return names_of(type).bytes; }
// false when the format's name is none modrec reads.
bool dtype_from_safetensors(const std::string& name, DType& out);
bool dtype_from_storage(const std::string& storage_class, DType& out);
// torch's name without "torch." or Python's alias of it: "float32", "float", "long", ...
bool dtype_from_torch(const std::string& name, DType& out);

// Widening conversions: `n` elements of `type` at `data` into `out`. Floating types of 16 bits or
// fewer go to float exactly (float8 NaN stays NaN); every type goes to double exactly except
// 64-bit integers beyond 2^53. Throws std::invalid_argument for a type widens() refuses.
bool widens(DType type);  // every real type: those a checkpoint may hold
void widen(DType type, const void* data, size_t n, float* out);
void widen(DType type, const void* data, size_t n, double* out);

}  // namespace modrec
