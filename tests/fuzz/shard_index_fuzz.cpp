// libFuzzer target: a sharded checkpoint's index (model.safetensors.index.json) whose text is the
// input, beside the shards make_seeds.py wrote (safetensors and torch.save shards, copied into a
// folder of the process's own from MODREC_FUZZ_SHARDS; the seeds' indexes name them). Read as
// modrec reads a checkpoint (the weight_map's values held to file names in the index's folder,
// each shard read, each name found in its shard, unnamed tensors left out), then summary's table,
// check's statistics and rules and diff's comparison.
// A modrec::Error is the expected way to refuse an index; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "checkpoint_stages.h"
#include "fuzz_file.h"
#include "util/error.h"

namespace {

// The index's path, its shards copied beside it once.
const std::string& index_path() {
  static const std::string path = [] {
    const char* shards = std::getenv("MODREC_FUZZ_SHARDS");
    if (!shards) std::abort();  // not a finding: the run is set up wrong
    for (const auto& e : std::filesystem::directory_iterator(shards))
      std::filesystem::copy_file(
          e.path(), modrec::fuzz::scratch_folder() + "/" + e.path().filename().string(),
          std::filesystem::copy_options::overwrite_existing);
    return modrec::fuzz::scratch_folder() + "/model.safetensors.index.json";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string& path = index_path();
  modrec::fuzz::write_in_folder(std::filesystem::path(path).filename(),
                                std::string(reinterpret_cast<const char*>(data), size));
  try {
    modrec::fuzz::use_checkpoint(modrec::read_checkpoint(path));
  } catch (const modrec::Error&) {
  }
  return 0;
}
