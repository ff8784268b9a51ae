// libFuzzer target: a torch.save'd state_dict whose data.pkl is the input, in a zip archive as
// torch.save writes it (its storages data/0 ... data/7 of 256 bytes each, CRCs right, so the
// mutations reach the pickle, not the zip checks). The pickle is read by modrec's own pickle
// machine, which never executes it (lib/files/state_dict_pickle.h), alone and as modrec
// reads the file (its kind told from the pickle's head; each tensor held to its storage), then
// summary's table, check's statistics and rules and diff's comparison.
// A modrec::Error is the expected way to refuse a file; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <string>

#include "files/state_dict_pickle.h"
#include "checkpoint_stages.h"
#include "fuzz_file.h"
#include "stored_zip.h"
#include "util/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string pickle(reinterpret_cast<const char*>(data), size);
  try {
    modrec::read_state_dict_pickle(pickle, "fuzz");
  } catch (const modrec::Error&) {
  }
  modrec::fuzz::Entries entries{{"archive/data.pkl", pickle}, {"archive/byteorder", "little"}};
  for (int s = 0; s < 8; ++s) {
    std::string bytes(256, '\0');
    for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>(i * 37 + s);
    entries.push_back({"archive/data/" + std::to_string(s), bytes});
  }
  entries.push_back({"archive/version", "3\n"});
  const std::string zip = modrec::fuzz::stored_zip(entries);
  const std::string& path =
      modrec::fuzz::write_scratch(reinterpret_cast<const uint8_t*>(zip.data()), zip.size());
  try {
    const modrec::FileInfo info = modrec::inspect_file(path);
    if (modrec::is_checkpoint(info.kind))
      modrec::fuzz::use_checkpoint(modrec::read_checkpoint(path, info));
  } catch (const modrec::Error&) {
  }
  return 0;
}
