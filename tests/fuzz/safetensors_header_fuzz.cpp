// libFuzzer target: a safetensors file whose JSON header is the input (issue 55): its 8-byte
// length, the input, then 4 KiB of data the offsets point into (bytes of every value, NaN and Inf
// patterns of each float dtype among them). Read as modrec reads a checkpoint (lib/checkpoint/:
// the header typed, dtypes, shapes, offsets, overlaps; read_json's size and depth limits), then
// summary's table, check's statistics and rules and diff's comparison, which read the tensors.
// A modrec::Error is the expected way to refuse a file; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "checkpoint_stages.h"
#include "fuzz_file.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string file(8, '\0');
  for (int i = 0; i < 8; ++i) file[static_cast<size_t>(i)] = static_cast<char>(size >> (8 * i));
  file.append(reinterpret_cast<const char*>(data), size);
  for (int i = 0; i < 4096; ++i) file += static_cast<char>(i * 37 + (i >> 8));
  const std::string& path =
      modrec::fuzz::write_scratch(reinterpret_cast<const uint8_t*>(file.data()), file.size());
  try {
    const modrec::FileInfo info = modrec::inspect_file(path);
    if (info.kind == modrec::FileKind::safetensors)
      modrec::fuzz::use_checkpoint(modrec::read_checkpoint(path, info));
  } catch (const modrec::Error&) {
  }
  return 0;
}
