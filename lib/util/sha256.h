// SHA-256 (FIPS 180-4) of files and byte strings, as lowercase hex like `sha256sum` prints.
// Written here so torch-free stages need no crypto library for the record manifest.
#pragma once
#include <string>
#include <string_view>

namespace modrec {

// Hex digest of the file's bytes, read in chunks. Throws Error(Exit::bad_input) if unreadable.
std::string sha256_file(const std::string& path);

// Hex digest of `bytes`.
std::string sha256_hex(std::string_view bytes);

}  // namespace modrec
