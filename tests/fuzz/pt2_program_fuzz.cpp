// libFuzzer target: the .pt2 program reader over whole archives whose models/model.json is the
// input (issue 44). Each input is put into a real torch.export archive (a template's every other
// entry as it is, CRCs right, so the mutations reach the program, not the zip checks), opened as
// modrec opens a model (load/pt2: the typed, checked program; instrument: each node held to its
// operator's schema) and run once on the meta device with the template's input size.
// A modrec::Error is the expected way to reject a program, and a c10::Error is a kernel's own
// refusal of the shapes a mutation wrote (exit 4 in the CLI); anything else is a finding.
//
// MODREC_FUZZ_PT2_TEMPLATE names the template archive (scripts/fuzz.sh: the seeds' relu.pt2).
#include <ATen/ATen.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "fuzz_file.h"
#include "stored_zip.h"
#include "instrument/open_model.h"
#include "files/archive.h"
#include "files/file_kind.h"
#include "util/error.h"

namespace {

const modrec::fuzz::Entries& template_entries() {
  static const modrec::fuzz::Entries entries = [] {
    const char* path = std::getenv("MODREC_FUZZ_PT2_TEMPLATE");
    if (!path) std::abort();  // not a finding: the run is set up wrong
    const modrec::Archive archive = modrec::Archive::open(path);
    modrec::fuzz::Entries out;
    for (const modrec::ArchiveEntry& e : archive.entries())
      out.emplace_back(e.name, archive.read(e));
    return out;
  }();
  return entries;
}

struct NoHooks final : modrec::CallHooks {
  void enter(int, int, const std::vector<c10::IValue>&) override {}
  c10::IValue leave(int, int, const c10::IValue& output) override { return output; }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  modrec::fuzz::Entries entries = template_entries();
  for (auto& [name, bytes] : entries)
    if (name.ends_with("models/model.json"))
      bytes.assign(reinterpret_cast<const char*>(data), size);
  const std::string zip = modrec::fuzz::stored_zip(entries);
  const std::string& path =
      modrec::fuzz::write_scratch(reinterpret_cast<const uint8_t*>(zip.data()), zip.size());
  try {
    auto model = modrec::open_model(path, modrec::inspect_file(path), modrec::Weights::meta, {});
    model->static_trace();
    std::vector<c10::IValue> inputs;
    for (size_t i = 0; i < model->forward_arguments().size(); ++i)
      inputs.emplace_back(at::zeros({2, 4}, at::TensorOptions().device(at::kMeta)));
    NoHooks hooks;
    model->forward(std::move(inputs), hooks);
  } catch (const modrec::Error&) {
  } catch (const c10::Error&) {
  }
  return 0;
}
