// libFuzzer target: modrec's own readers of ExecuTorch files (issue 55), which run before
// ExecuTorch's runtime sees a .pte: its header checks (load/executorch/pte_header.h), and an
// ETRecord's reader (its zip, its edge program through the .pt2 reader, its debug handle map)
// and its check against a program (load/executorch/etrecord.h, etrecord_check.h). The input's
// first byte picks the reader: 0, the header check over the rest as a file's head, the rest's
// size the file's; 1, the rest as an ETRecord zip read whole; else the rest split at its first
// NUL into the edge program's JSON and the debug handle map, parsed and checked against forward
// as ExecuTorch's runtime describes the seeds' program. A modrec::Error is the expected way to
// refuse a file; anything else is a finding. ExecuTorch's own verifier (the shim's
// InternalConsistency) is ExecuTorch's to fuzz.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_file.h"
#include "load/executorch/etrecord.h"
#include "load/executorch/etrecord_check.h"
#include "load/executorch/pte_header.h"
#include "util/error.h"

namespace {

// forward of test_pt2e.py's Net as lowered by ExecuTorch 1.5.1 (make_pte_seeds.py's): 7
// instructions, a float32 [2, 3, 8, 8] in, a float32 [2, 10] out (c10's Float is 6).
const modrec::PteMethod& net_forward() {
  static const modrec::PteMethod method{7, {{6, {2, 3, 8, 8}}}, {{6, {2, 10}}}};
  return method;
}

void read(std::string_view input) {
  const char reader = input.empty() ? 0 : input[0];
  input.remove_prefix(input.empty() ? 0 : 1);
  if (reader == 0) {
    modrec::check_pte_header(input.substr(0, modrec::kPteHeadBytes), input.size(), "fuzz.pte");
  } else if (reader == 1) {
    const std::string& path =
        modrec::fuzz::write_scratch(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    modrec::check_etrecord(modrec::read_etrecord(path), net_forward());
  } else {
    const size_t nul = input.find('\0');
    const std::string_view map = nul == std::string_view::npos ? "" : input.substr(nul + 1);
    modrec::check_etrecord(modrec::parse_etrecord(std::string(input.substr(0, nul)),
                                                  std::string(map), "fuzz.etrecord"),
                           net_forward());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  try {
    read(std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const modrec::Error&) {
  }
  return 0;
}
