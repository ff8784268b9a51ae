#include "files/dtypes.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace modrec {
namespace {

constexpr std::array<DTypeNames, 17> kNames{{
    {DType::float64, "float64", "F64", "DoubleStorage", 8},
    {DType::float32, "float32", "F32", "FloatStorage", 4},
    {DType::float16, "float16", "F16", "HalfStorage", 2},
    {DType::bfloat16, "bfloat16", "BF16", "BFloat16Storage", 2},
    {DType::float8_e4m3fn, "float8_e4m3fn", "F8_E4M3", "Float8_e4m3fnStorage", 1},
    {DType::float8_e5m2, "float8_e5m2", "F8_E5M2", "Float8_e5m2Storage", 1},
    {DType::int64, "int64", "I64", "LongStorage", 8},
    {DType::int32, "int32", "I32", "IntStorage", 4},
    {DType::int16, "int16", "I16", "ShortStorage", 2},
    {DType::int8, "int8", "I8", "CharStorage", 1},
    {DType::uint8, "uint8", "U8", "ByteStorage", 1},
    {DType::uint16, "uint16", "U16", "UInt16Storage", 2},
    {DType::uint32, "uint32", "U32", "UInt32Storage", 4},
    {DType::uint64, "uint64", "U64", "UInt64Storage", 8},
    {DType::boolean, "bool", "BOOL", "BoolStorage", 1},
    {DType::complex64, "complex64", nullptr, nullptr, 8},
    {DType::complex128, "complex128", nullptr, nullptr, 16},
}};

constexpr bool in_enum_order() {
  for (size_t i = 0; i < kNames.size(); ++i)
    if (static_cast<size_t>(kNames[i].type) != i) return false;
  return true;
}
static_assert(in_enum_order(), "names_of finds a type's row at its enum value");

// Python's other names of torch's dtypes: torch.float is torch.float32.
constexpr std::pair<const char*, DType> kAliases[] = {
    {"float", DType::float32},    {"double", DType::float64},     {"half", DType::float16},
    {"long", DType::int64},       {"int", DType::int32},          {"short", DType::int16},
    {"cfloat", DType::complex64}, {"cdouble", DType::complex128},
};

template <class Field>
bool find(const std::string& name, Field field, DType& out) {
  for (const DTypeNames& n : kNames)
    if (n.*field && name == n.*field) return out = n.type, true;
  return false;
}

// IEEE half: sign, 5 exponent bits (bias 15), 10 mantissa bits.
float half_to_float(uint16_t h) {
  const int exponent = (h >> 10) & 31, mantissa = h & 1023;
  const float sign = h & 0x8000 ? -1.0f : 1.0f;
  if (exponent == 31) return mantissa ? NAN : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
  return sign * std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
}

// float8_e4m3fn (OCP FP8): 4 exponent bits (bias 7), 3 mantissa bits, no infinities, S.1111.111
// is NaN.
float e4m3fn_to_float(uint8_t b) {
  const int exponent = (b >> 3) & 15, mantissa = b & 7;
  const float sign = b & 0x80 ? -1.0f : 1.0f;
  if (exponent == 15 && mantissa == 7) return NAN;
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -9);
  return sign * std::ldexp(static_cast<float>(mantissa + 8), exponent - 10);
}

// Every 8- and 16-bit float decoded once: a table lookup per element after that.
struct Tables {
  std::array<float, 65536> half;
  std::array<float, 256> e4m3fn, e5m2;
  Tables() {
    for (uint32_t i = 0; i < 65536; ++i) half[i] = half_to_float(static_cast<uint16_t>(i));
    for (uint32_t i = 0; i < 256; ++i) {
      e4m3fn[i] = e4m3fn_to_float(static_cast<uint8_t>(i));
      e5m2[i] = half[i << 8];  // float8_e5m2 is a half's top byte
    }
  }
};

const Tables& tables() {
  static const Tables t;
  return t;
}

// Element i of an array of T at `data`, which need not be aligned for T: a file places a
// tensor's bytes where it likes (a safetensors header of odd length, a zip entry anywhere).
template <class T>
T element(const void* data, size_t i) {
  T v;
  std::memcpy(&v, static_cast<const unsigned char*>(data) + i * sizeof(T), sizeof(T));
  return v;
}

template <class From, class To>
void cast(const void* data, size_t n, To* out) {
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<To>(element<From>(data, i));
}

// A bool's byte as torch reads it: any nonzero byte is true (1). Not read as a C++ bool, which
// may only hold 0 or 1: a file's other bytes would be undefined behaviour.
template <class To>
void bool_bytes(const void* data, size_t n, To* out) {
  const uint8_t* in = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) out[i] = in[i] != 0;
}

template <class To, size_t N>
void lookup(const std::array<float, N>& table, const void* data, size_t n, To* out) {
  using Index = std::conditional_t<N == 256, uint8_t, uint16_t>;
  for (size_t i = 0; i < n; ++i) out[i] = table[element<Index>(data, i)];
}

template <class To>
void bfloat16_to(const void* data, size_t n, To* out) {
  for (size_t i = 0; i < n; ++i)
    out[i] = std::bit_cast<float>(static_cast<uint32_t>(element<uint16_t>(data, i)) << 16);
}

template <class To>
void convert(DType type, const void* data, size_t n, To* out) {
  switch (type) {
    case DType::float64:
      return cast<double>(data, n, out);
    case DType::float32:
      return cast<float>(data, n, out);
    case DType::float16:
      return lookup(tables().half, data, n, out);
    case DType::bfloat16:
      return bfloat16_to(data, n, out);
    case DType::float8_e4m3fn:
      return lookup(tables().e4m3fn, data, n, out);
    case DType::float8_e5m2:
      return lookup(tables().e5m2, data, n, out);
    case DType::int64:
      return cast<int64_t>(data, n, out);
    case DType::int32:
      return cast<int32_t>(data, n, out);
    case DType::int16:
      return cast<int16_t>(data, n, out);
    case DType::int8:
      return cast<int8_t>(data, n, out);
    case DType::uint8:
      return cast<uint8_t>(data, n, out);
    case DType::uint16:
      return cast<uint16_t>(data, n, out);
    case DType::uint32:
      return cast<uint32_t>(data, n, out);
    case DType::uint64:
      return cast<uint64_t>(data, n, out);
    case DType::boolean:
      return bool_bytes(data, n, out);
    case DType::complex64:
    case DType::complex128:
      break;
  }
  throw std::invalid_argument(std::string("cannot widen ") + dtype_name(type) + " to a real value");
}

}  // namespace

const DTypeNames& names_of(DType type) { return kNames[static_cast<size_t>(type)]; }
std::span<const DTypeNames> dtype_table() { return kNames; }

bool dtype_from_safetensors(const std::string& name, DType& out) {
  return find(name, &DTypeNames::safetensors, out);
}
bool dtype_from_storage(const std::string& storage_class, DType& out) {
  return find(storage_class, &DTypeNames::storage, out);
}
bool dtype_from_torch(const std::string& name, DType& out) {
  if (find(name, &DTypeNames::torch, out)) return true;
  for (const auto& [alias, type] : kAliases)
    if (name == alias) return out = type, true;
  return false;
}

bool widens(DType type) { return names_of(type).storage != nullptr; }

void widen(DType type, const void* data, size_t n, float* out) { convert(type, data, n, out); }
void widen(DType type, const void* data, size_t n, double* out) { convert(type, data, n, out); }

}  // namespace modrec
