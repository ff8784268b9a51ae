// Files that are either the old version or the complete new one, never half-written:
// manifests and index files of a run directory.
#pragma once
#include <string>
#include <string_view>

namespace modrec {

// Writes `bytes` to `<path>.tmp-<pid>` and renames it over `path`. With `sync_to_disk`, fsyncs
// the file before the rename so the content survives a crash, not only an interrupt.
// Throws Error(Exit::write_failed) naming `path`; the temporary file is removed.
void write_file_atomic(const std::string& path, std::string_view bytes, bool sync_to_disk = false);

// Creates `dir` and its missing parents. Throws Error(Exit::write_failed) naming `dir`.
void make_directories(const std::string& dir);

}  // namespace modrec
