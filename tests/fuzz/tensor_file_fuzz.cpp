// libFuzzer target: modrec::read_inputs over arbitrary bytes (.npy, torch.save zip, anything).
// A modrec::Error is the expected way to reject a file; any other exception escapes and libFuzzer
// reports it, as it does any sanitizer report or crash.
#include <cstddef>
#include <cstdint>

#include "fuzz_file.h"
#include "tensor_files/read_inputs.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    modrec::read_inputs(modrec::fuzz::write_scratch(data, size));
  } catch (const modrec::Error&) {
  }
  return 0;
}
