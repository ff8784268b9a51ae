// libFuzzer target: the model readers over arbitrary bytes: inspect_file, Archive::open with
// verify_crc, load_model, which must reject a bad archive before torch::jit::load sees it, and
// pt2::read_exported (a torch.export archive's JSON program and stored tensors), and the checkpoint
// reader (a safetensors header, a torch.save state_dict's pickle).
// A modrec::Error is the expected way to reject a file; anything else is a finding.
#include <cstddef>
#include <cstdint>

#include "fuzz_file.h"
#include "checkpoint/checkpoint.h"
#include "files/archive.h"
#include "files/file_kind.h"
#include "load/load_model.h"
#include "load/pt2/exported_archive.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = modrec::fuzz::write_scratch(data, size);
  try {
    modrec::inspect_file(path);
    modrec::Archive::open(path).verify_crc();
  } catch (const modrec::Error&) {
  }
  try {
    modrec::load_model(path);
  } catch (const modrec::Error&) {
  }
  try {
    modrec::pt2::read_exported(path);
  } catch (const modrec::Error&) {
  }
  try {
    modrec::read_checkpoint(path);
  } catch (const modrec::Error&) {
  }
  return 0;
}
