// A shared library's file checked before the dynamic loader maps it (torch-free). glibc's dlopen
// maps each loadable segment where the program headers say it lies, and a file shorter than they
// say (the first 4 KB of a real library) is SIGBUS when the loader touches the missing pages:
// no message, no exit code. Python's ctypes crashes the same way. So the ELF header, and every
// program header's extent, must lie within the file before dlopen sees it.
#pragma once
#include <string>
#include <string_view>

namespace modrec {

// What is wrong with `elf`, a shared library's bytes ("is cut short: ..."), unless it is an ELF
// shared object for this machine (64-bit, its byte order and architecture) whose program headers,
// and the bytes each of them maps, lie within it: "" then.
std::string shared_library_defect(std::string_view elf);

// Error(bad_input) naming `path` and what is wrong, as shared_library_defect says, reading only
// the file's headers.
void check_shared_library_file(const std::string& path);

}  // namespace modrec
