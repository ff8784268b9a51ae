// The one way LibTorch's zip reader (caffe2's PyTorchStreamReader) reads a file of modrec's:
// through the Archive's open file, so a model or an input file is opened once and its bytes read
// once. LibTorch's reader checks no CRC-32 (PyTorch builds miniz without it), so a data record's
// bytes are checked here as miniz reads them whole, into the memory that becomes the storage; the
// small entries (code, pickles) are checked before LibTorch reads them (Archive::verify_crc).
#pragma once
#include <caffe2/serialize/read_adapter_interface.h>

#include <memory>
#include <optional>
#include <set>
#include <string>

#include "files/archive.h"
#include "files/storage_extents.h"
#include "util/error.h"

namespace modrec {

class ArchiveAdapter final : public caffe2::serialize::ReadAdapterInterface {
 public:
  // `read_data` false: a read of a data record fills nothing (a model loaded on the meta device:
  // LibTorch's unpickler moves each storage there at once, never looking at its bytes).
  ArchiveAdapter(std::shared_ptr<const Archive> archive, bool read_data);

  size_t size() const override { return archive_->file_size(); }
  // Errors are short reads: miniz, a C library, cannot pass an exception on; LibTorch then throws
  // its own, and the caller asks throw_if_damaged first.
  size_t read(uint64_t pos, void* buf, size_t n, const char* what) const override;

  // Each storage's entry, for check_storage_extents.
  const BackingEntries& backing() const { return records_.backing(); }
  // Before LibTorch reads again (another load): the memory read into before was freed.
  void forget() { records_.forget(); }
  // Throws the CRC-32 mismatch of a data record read whole, if one was found.
  void throw_if_damaged() const;
  // Checks the CRC-32 of each data record not read whole (none, as LibTorch reads today): with
  // throw_if_damaged, every stored entry read is checked once.
  void verify_unread() const;

 private:
  std::shared_ptr<const Archive> archive_;
  bool read_data_;
  mutable RecordReads records_;
  mutable std::set<std::string> checked_;  // data records whose CRC-32 matched as they were read
  mutable std::optional<Error> damaged_;
};

}  // namespace modrec
