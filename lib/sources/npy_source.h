// A .npy file as a SampleSource: memory-mapped, rows copied out a batch at a time and their pages
// given back to the kernel, so that reading a file larger than memory keeps only a batch resident.
#pragma once
#include "sources/sample_source.h"

namespace modrec {

// The source, or nullptr for a fortran_order array (its rows are strided over the whole file;
// read_inputs reads it whole). Error(bad_input) naming `path` for what parse_npy refuses.
SourcePtr open_npy_source(const std::string& path);

}  // namespace modrec
