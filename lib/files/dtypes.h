// The element types a checkpoint's tensors are stored in, by the names each format gives them
// (safetensors' "BF16", torch.save's BFloat16Storage or torch.bfloat16), and their values widened
// to float or double a chunk at a time (torch-free).
#pragma once
#include <cstddef>
#include <cstdint>
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
};

struct DTypeNames {
  DType type;
  const char* torch;        // torch's name without "torch.": "bfloat16"
  const char* safetensors;  // safetensors' header name: "BF16"
  const char* storage;      // torch.save's typed storage class: "BFloat16Storage"
  int bytes;
};

const DTypeNames& names_of(DType type);
inline const char* dtype_name(DType type) { return names_of(type).torch; }
inline int dtype_bytes(DType type) { return names_of(type).bytes; }
// false when the format's name is none modrec reads.
bool dtype_from_safetensors(const std::string& name, DType& out);
bool dtype_from_storage(const std::string& storage_class, DType& out);
bool dtype_from_torch(const std::string& name, DType& out);

// Widening conversions: `n` elements of `type` at `data` into `out`. Floating types of 16 bits or
// fewer go to float exactly (float8 NaN stays NaN); every type goes to double exactly except
// 64-bit integers beyond 2^53.
void widen(DType type, const void* data, size_t n, float* out);
void widen(DType type, const void* data, size_t n, double* out);

}  // namespace modrec
