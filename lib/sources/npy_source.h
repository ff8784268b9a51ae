// A .npy file as a SampleSource: memory-mapped, rows copied out a batch at a time and their pages
// given back to the kernel, so that reading a file larger than memory keeps only a batch resident.
#pragma once
#include "sources/sample_source.h"
#include "tensor_files/read_inputs.h"

namespace modrec {

// A .npy input (`npy.kind` numpy) as rows: memory-mapped, or read whole when fortran_order (its
// rows are strided over the whole file). Error(bad_input) naming its path for what parse_npy
// refuses.
SourcePtr npy_rows(const InputFile& npy);

}  // namespace modrec
