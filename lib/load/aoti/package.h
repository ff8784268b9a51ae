// An AOTInductor package (torch._inductor.aoti_compile_and_package: a .pt2 of compiled code) read
// and checked by modrec before LibTorch sees any of it: its entries' names and modes, its one
// compiled library (whole, and an ELF shared object for this machine), its metadata typed, and
// what its compiled program declares (constants, inputs, call spec) read from the C++ source it
// ships, so that a table needs no code of the package to run. instrument/aoti/ runs what passed.
// Torch-free (tests/fuzz's aoti_package target builds it alone).
#pragma once
#include <string>
#include <vector>

#include "files/archive.h"
#include "load/aoti/package_layout.h"
#include "load/aoti/package_metadata.h"
#include "load/aoti/wrapper_source.h"

namespace modrec::aoti {

struct Package {
  std::string path;  // the archive's
  PackageLayout layout;
  PackageMetadata metadata;
  WrapperSource program;  // what the compiled program declares (its wrapper.cpp)
  // The constants the package holds (those constant folding makes at run time left out).
  std::vector<CompiledConstant> constants() const;
};

// Throws Error(Exit::bad_input) naming the archive and what is wrong: package_layout's refusals,
// a library cut short or not for this machine, a damaged entry (CRC-32), metadata or source
// that cannot be read or is missing, a package compiled for a device other than the CPU.
Package read_package(const Archive& archive);

}  // namespace modrec::aoti
