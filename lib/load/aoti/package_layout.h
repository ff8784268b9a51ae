// Where the parts of an AOTInductor package lie in its zip archive, every entry's name and mode
// checked first (entry_names.h), torch-free. aoti_compile_and_package puts every entry under one
// root folder named after the package file; LibTorch's loader takes its compiled model from
// <root>/data/aotinductor/<model>/ and, when that folder holds no library, compiles the C++
// beside it with the compile command the package's own flags JSON names, through the shell.
// modrec never lets it: a package is read only with its library.
#pragma once
#include <string>
#include <vector>

#include "files/archive.h"
#include "util/error.h"

namespace modrec::aoti {

// An entry given to LibTorch's loader: where it goes in the folder the loader is handed.
struct RuntimeFile {
  ArchiveEntry entry;
  std::string to;  // relative, checked: "data/aotinductor/model/<hash>.wrapper.so"
};

struct PackageLayout {
  std::string root;                  // "mlp_package/": every entry's first component
  std::string model;                 // the compiled model's folder name: "model"
  ArchiveEntry library;              // <model>/<hash>.wrapper.so, the one there
  ArchiveEntry metadata;             // <model>/<hash>.wrapper_metadata.json
  ArchiveEntry source;               // <model>/<hash>.wrapper.cpp: what the program declares
  std::vector<RuntimeFile> runtime;  // the library, its metadata, a constants blob, constants
};

// Throws Error(Exit::bad_input) naming the archive and the entry: a name or mode that
// entry_names.h refuses, a name twice, an entry outside the root folder, several compiled models
// none of them named "model" (the loader's default), no compiled library (a package of C++ to
// compile) or several, no metadata or no wrapper source beside the library.
PackageLayout package_layout(const Archive& archive);

// The refusal of the package `archive`: Error(Exit::bad_input, "AOTInductor package: <what>"),
// naming the file, with what to give instead.
Error refused_package(const Archive& archive, const std::string& what);

}  // namespace modrec::aoti
