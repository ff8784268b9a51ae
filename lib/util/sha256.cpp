#include "util/sha256.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/error.h"

namespace modrec {
namespace {

constexpr std::array<uint32_t, 64> kRound = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// Incremental hasher: feed bytes in any chunking, then finish once.
class Sha256 {
 public:
  void update(std::string_view bytes) {
    total_ += bytes.size();
    while (!bytes.empty()) {
      size_t take = std::min(bytes.size(), block_.size() - used_);
      std::memcpy(block_.data() + used_, bytes.data(), take);
      used_ += take;
      bytes.remove_prefix(take);
      if (used_ == block_.size()) {
        compress();
        used_ = 0;
      }
    }
  }

  std::string hex_digest() {
    pad();
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (uint32_t word : state_)
      for (int shift = 28; shift >= 0; shift -= 4) out += digits[(word >> shift) & 0xf];
    return out;
  }

 private:
  // Appends 0x80, zeros, and the message length in bits (big-endian) to fill the last block.
  void pad() {
    uint64_t bits = total_ * 8;
    char tail[72] = {static_cast<char>(0x80)};
    size_t zeros = (used_ < 56 ? 56 - used_ : 120 - used_);
    for (int i = 0; i < 8; ++i) tail[zeros + i] = static_cast<char>(bits >> (56 - 8 * i));
    update(std::string_view(tail, zeros + 8));
  }

  void compress() {
    uint32_t w[64];
    for (int i = 0; i < 16; ++i)
      w[i] = uint32_t(block_[4 * i]) << 24 | uint32_t(block_[4 * i + 1]) << 16 |
             uint32_t(block_[4 * i + 2]) << 8 | uint32_t(block_[4 * i + 3]);
    for (int i = 16; i < 64; ++i) {
      uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    std::array<uint32_t, 8> v = state_;  // a..h
    for (int i = 0; i < 64; ++i) {
      uint32_t s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
      uint32_t ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
      uint32_t t1 = v[7] + s1 + ch + kRound[i] + w[i];
      uint32_t s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
      uint32_t maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      for (int j = 7; j > 0; --j) v[j] = v[j - 1];
      v[4] += t1;
      v[0] = t1 + s0 + maj;
    }
    for (int i = 0; i < 8; ++i) state_[i] += v[i];
  }

  std::array<uint32_t, 8> state_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<unsigned char, 64> block_{};
  size_t used_ = 0;
  uint64_t total_ = 0;
};

Error unreadable(const std::string& path) {
  return Error(Exit::bad_input, "cannot read file", path, "check that it exists and is readable");
}

}  // namespace

std::string sha256_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw unreadable(path);  // opens, but reads fail
  std::ifstream in(path, std::ios::binary);
  if (!in) throw unreadable(path);
  Sha256 hash;
  std::array<char, 1 << 16> chunk;
  while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0)
    hash.update(std::string_view(chunk.data(), static_cast<size_t>(in.gcount())));
  if (in.bad()) throw unreadable(path);
  return hash.hex_digest();
}

std::string sha256_hex(std::string_view bytes) {
  Sha256 hash;
  hash.update(bytes);
  return hash.hex_digest();
}

}  // namespace modrec
