// libFuzzer target: the AOTInductor package reader (lib/load/aoti/, issue 55) over whole
// archives, built torch-free from the reader's sources alone. An input is a list of entries,
// each "<u16 name length><name><u32 external attributes><u32 data length><data>" (little-endian;
// a short tail ends the list), put into a zip of stored entries with their CRCs right, so that
// the mutations reach the entry names and modes, the layout, the metadata JSON and the wrapper
// source rather than the zip checks. The package is read as modrec reads one before anything of
// it runs (never loaded: no library of an input is mapped), and each declared input held to a
// (4, 4) float32 tensor. A modrec::Error is the expected refusal; anything else is a finding.
// Seeds: tests/fuzz/corpus/aoti_package (tests/fuzz/make_aoti_seeds.py, from a real package).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "files/archive.h"
#include "fuzz_file.h"
#include "load/aoti/input_match.h"
#include "load/aoti/package.h"
#include "stored_zip.h"
#include "util/error.h"

namespace {

// `size` bytes at `at` of the input as a little-endian number; false past its end.
bool take(const uint8_t* data, size_t size, size_t& at, size_t bytes, uint32_t& out) {
  if (at + bytes > size) return false;
  out = 0;
  for (size_t i = 0; i < bytes; ++i) out |= static_cast<uint32_t>(data[at + i]) << (8 * i);
  at += bytes;
  return true;
}

std::vector<modrec::fuzz::ZipEntry> entries_of(const uint8_t* data, size_t size) {
  std::vector<modrec::fuzz::ZipEntry> out;
  size_t at = 0;
  uint32_t name = 0, attributes = 0, length = 0;
  while (take(data, size, at, 2, name) && at + name <= size) {
    modrec::fuzz::ZipEntry e{std::string(reinterpret_cast<const char*>(data + at), name), ""};
    at += name;
    if (!take(data, size, at, 4, attributes) || !take(data, size, at, 4, length)) break;
    e.external_attributes = attributes;
    length = static_cast<uint32_t>(std::min<size_t>(length, size - at));
    e.data.assign(reinterpret_cast<const char*>(data + at), length);
    at += length;
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string zip = modrec::fuzz::stored_zip(entries_of(data, size));
  const std::string& path =
      modrec::fuzz::write_scratch(reinterpret_cast<const uint8_t*>(zip.data()), zip.size());
  try {
    const modrec::aoti::Package package = modrec::aoti::read_package(modrec::Archive::open(path));
    (void)package.constants();
    for (const modrec::aoti::CompiledInput& in : package.program.inputs)
      (void)modrec::aoti::input_mismatch(in, "float32", {4, 4});
  } catch (const modrec::Error&) {
  }
  return 0;
}
