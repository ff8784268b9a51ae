#include "load/shared_library_file.h"

#include <elf.h>

#include <cstring>
#include <functional>
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

// The bytes at [offset, offset + n) into `out`; false past the end.
using Read = std::function<bool(uint64_t offset, void* out, uint64_t n)>;

// What is wrong, thrown from deep in the reading and caught by the public functions.
struct Defect {
  std::string what;
};

// Whether [offset, offset + size) lies within `total` bytes, without overflow.
bool within(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

Elf64_Ehdr read_header(const Read& read, uint64_t size) {
  Elf64_Ehdr h{};
  if (size < EI_NIDENT || !read(0, h.e_ident, EI_NIDENT) ||
      std::memcmp(h.e_ident, ELFMAG, SELFMAG) != 0)
    throw Defect{"is not an ELF shared library"};
  if (h.e_ident[EI_CLASS] != ELFCLASS64 || h.e_ident[EI_DATA] != ELFDATA2LSB)
    throw Defect{"is not a 64-bit little-endian ELF file, as this machine loads"};
  if (size < sizeof h || !read(0, &h, sizeof h)) throw Defect{"is cut short inside its ELF header"};
  if (h.e_type != ET_DYN) throw Defect{"is an ELF file but not a shared library"};
  if (h.e_machine != kMachine)
    throw Defect{std::string("is built for another architecture than ") + kMachineName +
                 " (ELF machine " + std::to_string(h.e_machine) + ")"};
  return h;
}

std::vector<Elf64_Phdr> read_program_headers(const Read& read, uint64_t size, const Elf64_Ehdr& h) {
  if (h.e_phentsize != sizeof(Elf64_Phdr) || h.e_phnum == 0)
    throw Defect{"has a malformed ELF header (its program header table)"};
  std::vector<Elf64_Phdr> headers(h.e_phnum);
  const uint64_t bytes = uint64_t{h.e_phnum} * sizeof(Elf64_Phdr);
  if (!within(h.e_phoff, bytes, size) || !read(h.e_phoff, headers.data(), bytes))
    throw Defect{"is cut short: its program headers lie past its end (" + std::to_string(size) +
                 " bytes)"};
  return headers;
}

void check(const Read& read, uint64_t size) {
  const Elf64_Ehdr header = read_header(read, size);
  for (const Elf64_Phdr& segment : read_program_headers(read, size, header)) {
    if (!within(segment.p_offset, segment.p_filesz, size))
      throw Defect{"is cut short: a segment it maps spans bytes " +
                   std::to_string(segment.p_offset) + " to " +
                   std::to_string(segment.p_offset + segment.p_filesz) + ", past its end (" +
                   std::to_string(size) + " bytes)"};
    if (segment.p_type == PT_LOAD && segment.p_filesz > segment.p_memsz)
      throw Defect{"has a malformed program header (a segment larger in the file than in memory)"};
  }
  if (header.e_shnum != 0 &&
      !within(header.e_shoff, uint64_t{header.e_shnum} * header.e_shentsize, size))
    throw Defect{"is cut short: its section headers lie past its end (" + std::to_string(size) +
                 " bytes)"};
}

}  // namespace

std::string shared_library_defect(std::string_view elf) {
  const Read read = [&](uint64_t offset, void* out, uint64_t n) {
    if (!within(offset, n, elf.size())) return false;
    std::memcpy(out, elf.data() + offset, n);
    return true;
  };
  try {
    check(read, elf.size());
    return "";
  } catch (const Defect& d) {
    return d.what;
  }
}

void check_shared_library_file(const std::string& path) {
  const auto file = ReadOnlyFile::open(path);
  std::string defect = "cannot be read";
  if (file) try {
      check([&](uint64_t offset, void* out, uint64_t n) { return file->read(offset, out, n); },
            file->size());
      return;
    } catch (const Defect& d) {
      defect = d.what;
    }
  throw Error(Exit::bad_input, "cannot load the operator library: it " + defect, path,
              "give the complete shared library (.so) as the build wrote it; copy it again if "
              "it was cut short");
}

}  // namespace modrec
