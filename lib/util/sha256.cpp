#include "util/sha256.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "util/error.h"
#include "util/sha256_blocks.h"

namespace modrec {
namespace {

// Incremental hasher: feed bytes in any chunking, then finish once.
class Sha256 {
 public:
  void update(std::string_view bytes) {
    total_ += bytes.size();
    if (bytes.empty()) return;
    if (used_ > 0) {
      const size_t take = std::min(bytes.size(), block_.size() - used_);
      std::memcpy(block_.data() + used_, bytes.data(), take);
      used_ += take;
      bytes.remove_prefix(take);
      if (used_ < block_.size()) return;  // and bytes is used up
      sha256_blocks()(state_, block_.data(), 1);
      used_ = 0;
    }
    const size_t whole = bytes.size() / block_.size();  // hashed where they are, not copied
    sha256_blocks()(state_, reinterpret_cast<const unsigned char*>(bytes.data()), whole);
    bytes.remove_prefix(whole * block_.size());
    std::memcpy(block_.data(), bytes.data(), bytes.size());
    used_ = bytes.size();
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

  Sha256State state_ = kSha256Initial;
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
