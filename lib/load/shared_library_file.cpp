#include "load/shared_library_file.h"

#include <elf.h>

#include <cstring>
#include <vector>

#include "util/error.h"
#include "util/read_only_file.h"

namespace modrec {
namespace {

#if defined(__x86_64__)
constexpr uint16_t kMachine = EM_X86_64;
constexpr const char* kMachineName = "x86-64";
#elif defined(__aarch64__)
constexpr uint16_t kMachine = EM_AARCH64;
constexpr const char* kMachineName = "AArch64";
#else
#error "modrec checks shared libraries for x86-64 and AArch64 machines"
#endif

Error not_loadable(const std::string& path, const std::string& what) {
  return Error(Exit::bad_input, "cannot load the operator library: it " + what, path,
               "give the complete shared library (.so) as the build wrote it; copy it again if "
               "it was cut short");
}

// Whether [offset, offset + size) lies within a file of `file_size` bytes, without overflow.
bool within(uint64_t offset, uint64_t size, uint64_t file_size) {
  return offset <= file_size && size <= file_size - offset;
}

Elf64_Ehdr read_header(const ReadOnlyFile& file, const std::string& path) {
  Elf64_Ehdr h{};
  if (file.size() < EI_NIDENT || !file.read(0, h.e_ident, EI_NIDENT) ||
      std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0)
    throw not_loadable(path, "is not an ELF shared library");
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB)
    throw not_loadable(path, "is not a 64-bit little-endian ELF file, as this machine loads");
  if (file.size() < sizeof h || !file.read(0, &h, sizeof h))
    throw not_loadable(path, "is cut short inside its ELF header");
  if (h.e_type != ET_DYN) throw not_loadable(path, "is an ELF file but not a shared library");
  if (h.e_machine != kMachine)
    throw not_loadable(path, std::string("is built for another architecture than ") + kMachineName +
                                 " (ELF machine " + std::to_string(h.e_machine) + ")");
  return h;
}

std::vector<Elf64_Phdr> read_program_headers(const ReadOnlyFile& file, const Elf64_Ehdr& h,
                                             const std::string& path) {
  if (h.e_phentsize != sizeof(Elf64_Phdr) || h.e_phnum == 0)
    throw not_loadable(path, "has a malformed ELF header (its program header table)");
  std::vector<Elf64_Phdr> headers(h.e_phnum);
  const uint64_t bytes = uint64_t{h.e_phnum} * sizeof(Elf64_Phdr);
  if (!within(h.e_phoff, bytes, file.size()) || !file.read(h.e_phoff, headers.data(), bytes))
    throw not_loadable(path, "is cut short: its program headers lie past its end (" +
                                 std::to_string(file.size()) + " bytes)");
  return headers;
}

}  // namespace

void check_shared_library_file(const std::string& path) {
  const auto file = ReadOnlyFile::open(path);
  if (!file) throw not_loadable(path, "cannot be read");
  const Elf64_Ehdr header = read_header(*file, path);
  for (const Elf64_Phdr& segment : read_program_headers(*file, header, path)) {
    if (!within(segment.p_offset, segment.p_filesz, file->size()))
      throw not_loadable(path, "is cut short: a segment it maps spans bytes " +
                                   std::to_string(segment.p_offset) + " to " +
                                   std::to_string(segment.p_offset + segment.p_filesz) +
                                   ", past its end (" + std::to_string(file->size()) + " bytes)");
    if (segment.p_type == PT_LOAD && segment.p_filesz > segment.p_memsz)
      throw not_loadable(path,
                         "has a malformed program header (a segment larger in the file "
                         "than in memory)");
  }
  if (header.e_shnum != 0 &&
      !within(header.e_shoff, uint64_t{header.e_shnum} * header.e_shentsize, file->size()))
    throw not_loadable(path, "is cut short: its section headers lie past its end (" +
                                 std::to_string(file->size()) + " bytes)");
}

}  // namespace modrec
