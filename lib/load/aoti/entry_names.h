// The names and modes of an AOTInductor package's zip entries, checked before anything of the
// package is extracted (torch-free). LibTorch's loader writes each entry to its folder + "/" +
// the name as it stands, so a ".." component escapes the folder (zip slip), and a Unix mode kept
// in the external attributes may ask an unpacker for a link or a device.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace modrec::aoti {

// Why `name` may not be written under a folder: "" when it may. Refused: empty, a leading '/' or
// '\', any '\', ':' or NUL byte (a Windows drive or separator, a C string cut short), an empty,
// "." or ".." path component.
std::string entry_name_defect(std::string_view name);

// Why an entry of these external attributes may not be extracted: "" for a regular file (or no
// Unix mode at all, as non-Unix zip writers leave it), and a directory whose `name` ends in '/';
// else "a symbolic link", "a device", ... as its st_mode's file type says.
std::string entry_mode_defect(uint32_t external_attributes, std::string_view name);

}  // namespace modrec::aoti
