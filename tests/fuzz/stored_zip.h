// A zip of stored entries, built as modrec's and LibTorch's readers expect it (what
// torch.export.save and aoti_compile_and_package write), so that a fuzzer's mutations reach the
// reader past the zip checks: CRCs right, each entry's Unix mode as given.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "files/archive.h"

namespace modrec::fuzz {

struct ZipEntry {
  std::string name, data;
  uint32_t external_attributes = 0;  // a Unix mode in the upper 16 bits
};
using Entries = std::vector<ZipEntry>;

namespace zip_detail {
inline void put16(std::string& out, uint32_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}
inline void put32(std::string& out, uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}
}  // namespace zip_detail

inline std::string stored_zip(const std::vector<ZipEntry>& entries) {
  using zip_detail::put16;
  using zip_detail::put32;
  std::string out, directory;
  for (const ZipEntry& e : entries) {
    const uint32_t crc = crc32_update(0, e.data.data(), e.data.size());
    const uint32_t offset = static_cast<uint32_t>(out.size());
    for (std::string* h : {&out, &directory}) {
      put32(*h, h == &out ? 0x04034b50 : 0x02014b50);
      if (h == &directory) put16(*h, 0x0314);                 // made by: Unix, 2.0
      for (uint32_t v : {20u, 0u, 0u, 0u, 0u}) put16(*h, v);  // version, flags, method, time, date
      put32(*h, crc);
      put32(*h, static_cast<uint32_t>(e.data.size()));
      put32(*h, static_cast<uint32_t>(e.data.size()));
      put16(*h, static_cast<uint32_t>(e.name.size()));
      put16(*h, 0);  // extra field
      if (h == &directory) {
        for (uint32_t v : {0u, 0u, 0u}) put16(*h, v);  // comment, disk, internal attributes
        put32(*h, e.external_attributes);
        put32(*h, offset);
      }
      *h += e.name;
    }
    out += e.data;
  }
  const uint32_t at = static_cast<uint32_t>(out.size());
  out += directory;
  put32(out, 0x06054b50);
  for (uint32_t v : {0u, 0u}) put16(out, v);
  for (int i = 0; i < 2; ++i) put16(out, static_cast<uint32_t>(entries.size()));
  put32(out, static_cast<uint32_t>(directory.size()));
  put32(out, at);
  put16(out, 0);
  return out;
}

}  // namespace modrec::fuzz
