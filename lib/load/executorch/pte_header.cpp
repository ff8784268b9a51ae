#include "load/executorch/pte_header.h"

#include <algorithm>

#include "util/error.h"
#include "util/read_only_file.h"

namespace modrec {
namespace {

const char* const kHint =
    "give the .pte that to_executorch wrote, whole, or the .pt2 it was lowered from";

uint64_t little_endian(std::string_view bytes, size_t at, size_t width) {
  uint64_t v = 0;
  for (size_t i = width; i-- > 0;) v = v << 8 | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

// The extended header, ExecuTorch's _ExtendedHeader: magic, length, then the sizes.
constexpr std::string_view kExtendedMagic = "eh00";
constexpr size_t kExtendedAt = 8;
constexpr uint64_t kExtendedMinimum = 24;  // magic, length, program size, segment base offset
constexpr uint64_t kExtendedWithDataSize = 32;
// flatbuffers::Verifier's FLATBUFFERS_MAX_BUFFER_SIZE: no FlatBuffer is larger.
constexpr uint64_t kMaxFlatBuffer = (uint64_t{1} << 31) - 1;

std::string bytes(uint64_t n) { return std::to_string(n) + " bytes"; }

}  // namespace

PteLayout check_pte_header(std::string_view head, uint64_t file_size, const std::string& path) {
  const auto damaged = [&](const std::string& what) {
    return Error(Exit::bad_input, "ExecuTorch program is damaged: " + what, path, kHint);
  };
  if (head.size() < 8 || head.substr(4, 4) != "ET12")
    throw damaged("it has no ExecuTorch identifier (ET12) after its first 4 bytes");
  PteLayout layout{file_size, file_size, 0, 0};
  uint64_t header_end = 8;
  if (head.size() >= kExtendedAt + 8 && head.substr(kExtendedAt, 4) == kExtendedMagic) {
    const uint64_t length = little_endian(head, kExtendedAt + 4, 4);
    if (length < kExtendedMinimum ||
        head.size() < kExtendedAt + std::min(length, kExtendedWithDataSize))
      throw damaged("its extended header is " + bytes(length) +
                    " long, or the file ends inside it");
    layout.program_size = little_endian(head, kExtendedAt + 8, 8);
    layout.segment_base_offset = little_endian(head, kExtendedAt + 16, 8);
    if (length >= kExtendedWithDataSize)
      layout.segment_data_size = little_endian(head, kExtendedAt + 24, 8);
    header_end = kExtendedAt + length;
    if (layout.program_size < header_end || layout.program_size > file_size)
      throw damaged("its header says the program is " + bytes(layout.program_size) +
                    " and the file holds " + bytes(file_size) +
                    (layout.program_size > file_size ? " (it is cut short)" : ""));
    const uint64_t base = layout.segment_base_offset, size = layout.segment_data_size;
    if ((base == 0 && size != 0) || (base != 0 && base < layout.program_size) || base > file_size ||
        size > file_size - std::min(base, file_size))
      throw damaged("its header says its data is " + bytes(size) + " from byte " +
                    std::to_string(base) + ", past the program's " + bytes(layout.program_size) +
                    " or the file's " + bytes(file_size) + " (it is cut short)");
  }
  if (layout.program_size > kMaxFlatBuffer)
    throw damaged("its program is " + bytes(layout.program_size) +
                  ", more than a FlatBuffer holds (2 GiB)");
  const uint64_t root = little_endian(head, 0, 4);
  if (root < header_end || root + 4 > layout.program_size)
    throw damaged("its root table's offset " + std::to_string(root) +
                  " is outside its program of " + bytes(layout.program_size));
  return layout;
}

PteLayout read_pte_header(const std::string& path) {
  const auto file = ReadOnlyFile::open(path);
  if (!file)
    throw Error(Exit::bad_input, "ExecuTorch program cannot be read", path,
                "give a .pte that exists and is readable");
  std::string head(std::min<uint64_t>(file->size(), kPteHeadBytes), '\0');
  if (!file->read(0, head.data(), head.size()))
    throw Error(Exit::bad_input, "ExecuTorch program cannot be read", path,
                "give a .pte that exists and is readable");
  return check_pte_header(head, file->size(), path);
}

}  // namespace modrec
