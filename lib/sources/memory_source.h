// A tensor in memory as a SampleSource: its rows are views of it.
#pragma once
#include <string>

#include <ATen/ATen.h>

#include "sources/sample_source.h"

namespace modrec {

// A tensor in memory: --input-size's random inputs (kind "random", no files), a .pt's tensor or a
// fortran-order .npy read whole.
SourcePtr memory_source(at::Tensor t, std::string kind = "random", std::string path = "");

}  // namespace modrec
