// A torch-free reader for the zip archives that torch.jit.save and torch.save write. modrec checks
// a model file with it before LibTorch sees the file: LibTorch 1.13 loads an archive whose weight
// bytes were damaged without a word, and can crash on a malformed one.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace modrec {

class ReadOnlyFile;

struct ArchiveEntry {
  std::string name;          // full name inside the zip, e.g. "model/data/0"
  uint64_t offset = 0;       // where the entry's (possibly compressed) bytes start in the file
  uint64_t size = 0;         // uncompressed size
  uint64_t stored_size = 0;  // size in the file (equals size for stored entries)
  uint32_t crc32 = 0;        // CRC-32 of the uncompressed bytes, from the central directory
  uint16_t method = 0;       // 0 stored, 8 deflate
  // The central directory's external attributes: a Unix host keeps the file's st_mode in the
  // upper 16 bits (a symlink's S_IFLNK included; unpackers that honour it make the link).
  uint32_t external_attributes = 0;
  bool stored() const { return method == 0; }
};

class Archive {
 public:
  // Opens the file, reads the central directory and checks every local header. Throws
  // Error(bad_input) naming the file when it is missing, a directory, empty, not a zip archive,
  // truncated or malformed. The file stays open, shared by copies, for every later read: a model
  // file is opened once per command.
  static Archive open(const std::string& path);
  // The same on a file already open (files/file_kind.h read its first bytes through it); `path`
  // names it in messages.
  static Archive open(const std::string& path, std::shared_ptr<const ReadOnlyFile> file);

  const std::string& path() const { return path_; }
  uint64_t file_size() const { return file_size_; }
  const std::vector<ArchiveEntry>& entries() const { return entries_; }
  // The entry whose name equals `name` or ends with "/" + name (archives put all entries under
  // one top-level folder); nullptr when there is none.
  const ArchiveEntry* find(const std::string& name) const;
  bool has(const std::string& name) const { return find(name) != nullptr; }
  // True when some entry name contains `part`, e.g. "/code/".
  bool has_part(const std::string& part) const;
  // The bytes of a stored entry, checked against its CRC-32; throws Error(bad_input) for a
  // compressed or damaged one.
  std::string read(const ArchiveEntry& entry) const;
  // A stored entry that is itself a zip (a .pt2's weight pickled by torch.save) as an archive,
  // read through this one's file and named "<path>:<entry>"; its bytes are checked against the
  // entry's CRC-32 first. Throws Error(bad_input) as read() and open() do.
  Archive nested(const ArchiveEntry& entry) const;
  // `size` bytes of the file at `offset`, into `out`: from the end of the file read at open (the
  // central directory, and the whole of a small file) when they lie there, else read from the
  // open file. Throws Error(bad_input) "truncated" past the end.
  void read_at(uint64_t offset, void* out, uint64_t size) const;
  // Throws Error(bad_input, "archive entry <name> is damaged (CRC-32 mismatch)") on the first
  // stored entry whose bytes do not match their checksum, those `skip` names left out (entries
  // that are read, and so checked, later or never). Deflated entries (TorchScript code) are not
  // inflated here: load_model checks them with LibTorch's zip reader and check_crc.
  void verify_crc(const std::function<bool(const ArchiveEntry&)>& skip = {}) const;
  // Throws the same error when `data` (the entry's uncompressed bytes) does not match its CRC-32.
  void check_crc(const ArchiveEntry& entry, const void* data, size_t size) const;

 private:
  std::string path_;
  uint64_t file_size_ = 0;
  std::shared_ptr<const ReadOnlyFile> file_;
  std::string tail_;  // the file's last bytes, read to find the directory: they usually hold it
  uint64_t tail_offset_ = 0;
  std::vector<ArchiveEntry> entries_;
};

// CRC-32 (IEEE 802.3, as zip uses) of `size` bytes, continuing from `crc` (0 to start).
uint32_t crc32_update(uint32_t crc, const void* data, size_t size);

}  // namespace modrec
