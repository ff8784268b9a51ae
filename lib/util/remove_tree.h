// Removing a directory tree. Not std::filesystem::remove_all: some LibTorch builds export their own
// copy of libstdc++'s filesystem operations and the dynamic linker binds modrec's calls to it; the
// copy in the 2.11 on the GPU machine jumps to a null pointer in remove_all (every recording
// crashed at its end there). POSIX's nftw has no such twin. tests/CMakeLists.txt keeps
// remove_all out of the sources.
#pragma once
#include <filesystem>
#include <system_error>

namespace modrec {

// Removes `path` and everything under it (symbolic links themselves, never what they point to).
// A missing path is no error. On failure `error` holds the first error; the rest may remain.
void remove_tree(const std::filesystem::path& path, std::error_code& error);

// The same, throwing std::filesystem::filesystem_error on failure.
void remove_tree(const std::filesystem::path& path);

}  // namespace modrec
