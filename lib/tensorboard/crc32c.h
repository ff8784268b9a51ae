// CRC-32C (Castagnoli), the checksum TFRecord framing requires of TensorBoard's event files, and
// its masked form (torch-free).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace modrec {

uint32_t crc32c(std::string_view data);
// TFRecord stores CRCs rotated and offset, so that a CRC of data holding CRCs stays well mixed.
uint32_t masked_crc32c(std::string_view data);

}  // namespace modrec
