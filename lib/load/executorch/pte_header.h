// A .pte's layout as its first bytes tell it, checked before ExecuTorch's runtime reads the file
// (torch-free). ExecuTorch's program file (docs/source/pte-file-format.md in its source): a
// FlatBuffer whose 4-byte root offset and identifier "ET12" come first, then optionally its
// extended header ("eh00", its length, the FlatBuffer's size, where the segments start and how
// many bytes they hold: little-endian), then the FlatBuffer's program, then the segments (constant
// data, delegates' blobs). ExecuTorch's own verifier (the shim's) checks the FlatBuffer inside;
// this checks what it takes from the header: that every part lies within the file.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace modrec {

struct PteLayout {
  uint64_t file_size = 0;
  uint64_t program_size = 0;         // the FlatBuffer's bytes, headers included
  uint64_t segment_base_offset = 0;  // 0: no segments
  uint64_t segment_data_size = 0;    // 0: no segments, or a header too old to tell
};

// How many of a file's first bytes check_pte_header reads (ExecuTorch's kNumHeadBytes).
constexpr size_t kPteHeadBytes = 64;

// The layout `head` (the file's first bytes, up to kPteHeadBytes) tells for a file of
// `file_size` bytes. Error(bad_input) naming `path` and the defect: no ET12 identifier, a root
// offset outside the program, an extended header too short or whose program or segments lie
// past the file's end (a file cut short), a program larger than a FlatBuffer can be.
PteLayout check_pte_header(std::string_view head, uint64_t file_size, const std::string& path);

// check_pte_header of the file at `path`. Error(bad_input) when it cannot be read.
PteLayout read_pte_header(const std::string& path);

}  // namespace modrec
