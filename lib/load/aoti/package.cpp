#include "load/aoti/package.h"

#include <stdexcept>

#include "load/shared_library_file.h"

namespace modrec::aoti {
namespace {

// An entry modrec reads, and the thing it reads it into; a defect the reader names becomes the
// package's refusal naming the entry.
template <class Read>
auto read_entry(const Archive& archive, const ArchiveEntry& entry, Read read) {
  const std::string bytes = archive.read(entry);  // stored and whole (CRC-32), or Error
  try {
    return read(bytes);
  } catch (const std::invalid_argument& e) {
    throw refused_package(archive, entry.name + " " + e.what());
  }
}

void check_library(const Archive& archive, const ArchiveEntry& library) {
  const std::string defect = shared_library_defect(archive.read(library));
  if (!defect.empty())
    throw refused_package(archive, "compiled library is damaged: " + library.name + " " + defect);
}

}  // namespace

std::vector<CompiledConstant> Package::constants() const {
  std::vector<CompiledConstant> held;
  for (const CompiledConstant& c : program.constants)
    if (!c.from_folded) held.push_back(c);
  return held;
}

Package read_package(const Archive& archive) {
  Package out{archive.path(), package_layout(archive), {}, {}};
  check_library(archive, out.layout.library);
  out.metadata = read_entry(archive, out.layout.metadata, parse_package_metadata);
  if (out.metadata.device != "cpu")
    throw refused_package(archive, "cannot be loaded: compiled for " + out.metadata.device +
                                       "; modrec runs packages compiled for the CPU");
  out.program = read_entry(archive, out.layout.source,
                           [](const std::string& text) { return parse_wrapper_source(text); });
  return out;
}

}  // namespace modrec::aoti
