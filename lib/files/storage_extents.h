// A loaded value's tensors checked against the bytes behind them, before any of their values is
// read (issue 44). LibTorch's unpickler sizes a storage by the element count its pickle states,
// not by the archive entry that holds its bytes, and views it by the pickle's sizes, strides and
// offset unchecked: an entry cut short (its CRC-32 consistent) was read past its end, and its
// neighbours' bytes recorded as a Linear's weights. torch.jit.load has the same gap.
#pragma once
#include <ATen/core/ivalue.h>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "files/archive.h"

namespace modrec {

// The archive entry whose bytes a storage's memory was read from: its name and size.
struct BackingEntry {
  std::string name;
  uint64_t size = 0;
};
// By the address of the memory each entry was read into (a storage's data pointer).
using BackingEntries = std::unordered_map<const void*, BackingEntry>;

// Whether `e` is a data record: <archive>/data/<storage key>, a storage's bytes.
bool is_data_record(const ArchiveEntry& e);

// The archive's data records (<archive>/data/<key>: the bytes of the storages) as LibTorch's zip
// reader reads them through a ReadAdapterInterface: miniz reads a stored entry's bytes in one
// call, into the memory that becomes the storage, so noting each such read ties a storage to its
// entry.
class RecordReads {
 public:
  explicit RecordReads(const Archive& archive);
  // The data record that bytes [pos, pos + n) lie within; null when they are no record's.
  const ArchiveEntry* record_within(uint64_t pos, uint64_t n) const;
  // After the adapter read [pos, pos + n) into `buf`: a whole record's read is noted, and the
  // record returned; null for any other read.
  const ArchiveEntry* note(uint64_t pos, const void* buf, uint64_t n);
  const BackingEntries& backing() const { return backing_; }
  void forget() { backing_.clear(); }  // before another load: its memory was freed

 private:
  std::map<uint64_t, ArchiveEntry> records_;  // by offset
  BackingEntries backing_;
};

// Every tensor reachable from `root` (a module's attributes, by their dotted names; lists, tuples
// and dicts by index) whose view reaches past its storage, or past the entry the storage was read
// from, is Error(bad_input) naming `path`, the entry and the tensor. Tensors on the meta device
// (nothing read) and of layouts without a plain storage are not checked.
void check_storage_extents(const c10::IValue& root, const BackingEntries& entries,
                           const std::string& path);

}  // namespace modrec
