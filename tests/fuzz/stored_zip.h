// A zip of stored entries, as torch.save and torch.export.save write them, built from (name, bytes)
// pairs with right CRCs: a fuzz target puts its input into one entry of an otherwise valid
// archive, so that the mutations reach the reader of that entry, not the zip checks.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "files/archive.h"

namespace modrec::fuzz {

using Entries = std::vector<std::pair<std::string, std::string>>;

inline void put16(std::string& out, uint32_t v) {
  out += static_cast<char>(v & 0xff);
  out += static_cast<char>((v >> 8) & 0xff);
}
inline void put32(std::string& out, uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}

// A zip of stored entries (what torch.export.save writes), built as its readers expect it.
inline std::string stored_zip(const Entries& entries) {
  std::string out, directory;
  for (const auto& [name, data] : entries) {
    const uint32_t crc = modrec::crc32_update(0, data.data(), data.size());
    const uint32_t offset = static_cast<uint32_t>(out.size());
    for (std::string* h : {&out, &directory}) {
      put32(*h, h == &out ? 0x04034b50 : 0x02014b50);
      if (h == &directory) put16(*h, 20);                     // made by
      for (uint32_t v : {20u, 0u, 0u, 0u, 0u}) put16(*h, v);  // version, flags, method, time, date
      put32(*h, crc);
      put32(*h, static_cast<uint32_t>(data.size()));
      put32(*h, static_cast<uint32_t>(data.size()));
      put16(*h, static_cast<uint32_t>(name.size()));
      put16(*h, 0);  // extra field
      if (h == &directory) {
        for (uint32_t v : {0u, 0u, 0u}) put16(*h, v);  // comment, disk, internal attributes
        put32(*h, 0);                                  // external attributes
        put32(*h, offset);
      }
      *h += name;
    }
    out += data;
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
