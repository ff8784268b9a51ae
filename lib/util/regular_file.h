// Inputs are read from regular files only. A character device never ends (reading /dev/zero
// whole allocates without bound) and a FIFO or socket blocks until a writer comes: each is
// refused before it is opened, with what it is.
#pragma once
#include <string>

namespace modrec {

// What `path` is when it is no regular file (symbolic links followed): "a character device",
// "a FIFO", ...; "" for a regular file and for a path that does not exist (its reader says so).
std::string non_regular_kind(const std::string& path);

// Throws Error(bad_input) "<what> is <kind>, not a regular file" naming `path`, unless `path` is
// a regular file or does not exist.
void require_regular_file(const std::string& path, const std::string& what);

// An output file is written beside its path and renamed onto it, which would replace a device,
// FIFO or socket of that name (/dev/null as root). Throws Error(write_failed) naming `path` when
// it exists and is no regular file.
void require_file_output(const std::string& path);

// require_file_output, and without `force` an existing file is refused too, Error(write_failed)
// naming `path` and saying to pass --force, as an existing output directory is (atomic_dir.h).
void require_new_file_output(const std::string& path, bool force);

}  // namespace modrec
