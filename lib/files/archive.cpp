#include "files/archive.h"

#include <array>
#include <cstring>
#include <filesystem>

#include "util/error.h"
#include "util/read_only_file.h"

namespace modrec {
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kLocalSig = 0x04034b50, kCentralSig = 0x02014b50, kEndSig = 0x06054b50,
                   kEnd64Sig = 0x06064b50, kLocator64Sig = 0x07064b50;
constexpr uint64_t kEndSize = 22, kCentralSize = 46, kLocalSize = 30;

Error damaged(const std::string& path, const std::string& what) {
  return Error(Exit::bad_input, "model file is " + what, path,
               "the file is damaged; save it again with torch.jit.save");
}

Error crc_mismatch(const std::string& path, const ArchiveEntry& e) {
  return Error(Exit::bad_input, "archive entry " + e.name + " is damaged (CRC-32 mismatch)", path,
               "the file was corrupted after saving; save or copy it again");
}

uint64_t le(const std::string& b, size_t at, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

// True when [offset, offset + size) does not lie inside the file. Written without the sum, which
// wraps around for the 64-bit offsets and sizes a zip64 record can claim.
bool past_end(uint64_t offset, uint64_t size, uint64_t file_size) {
  return size > file_size || offset > file_size - size;
}

std::string bytes_at(const Archive& a, uint64_t offset, uint64_t size) {
  std::string bytes(size, '\0');
  a.read_at(offset, bytes.data(), size);
  return bytes;
}

void check_plain_file(const std::string& path) {
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (!fs::exists(status))
    throw Error(Exit::bad_input, "model file does not exist", path, "check the path");
  if (fs::is_directory(status))
    throw Error(Exit::bad_input, "model file is a directory", path,
                "give the .pt file that torch.jit.save wrote");
  if (fs::file_size(path, ec) == 0)
    throw Error(Exit::bad_input, "model file is empty", path,
                "save the model again with torch.jit.save");
}

struct Directory {
  uint64_t count = 0, size = 0, offset = 0;
};

// The end-of-central-directory record sits in `tail`, the file's last 22 + up to 65535 (comment)
// bytes, which start at `tail_at`.
Directory find_directory(const Archive& a, const std::string& tail, uint64_t tail_at) {
  const std::string& path = a.path();
  for (uint64_t i = tail.size() < kEndSize ? 0 : tail.size() - kEndSize + 1; i-- > 0;) {
    if (le(tail, i, 4) != kEndSig) continue;
    Directory d{le(tail, i + 10, 2), le(tail, i + 12, 4), le(tail, i + 16, 4)};
    uint64_t end_at = tail_at + i;
    if (d.count != 0xFFFF && d.offset != 0xFFFFFFFF && d.size != 0xFFFFFFFF) return d;
    if (end_at < 20) throw damaged(path, "not a valid zip archive (bad zip64 directory)");
    std::string loc = bytes_at(a, end_at - 20, 20);
    if (le(loc, 0, 4) != kLocator64Sig)
      throw damaged(path, "not a valid zip archive (bad zip64 directory)");
    std::string end64 = bytes_at(a, le(loc, 8, 8), 56);
    if (le(end64, 0, 4) != kEnd64Sig)
      throw damaged(path, "not a valid zip archive (bad zip64 directory)");
    return {le(end64, 32, 8), le(end64, 40, 8), le(end64, 48, 8)};
  }
  throw damaged(path, "truncated (the zip central directory is missing)");
}

// Sizes and offset that do not fit 32 bits live in the zip64 extra field (id 1), in this order.
void apply_zip64(const std::string& extra, ArchiveEntry& e, uint64_t& local_offset) {
  for (size_t at = 0; at + 4 <= extra.size();) {
    uint64_t id = le(extra, at, 2), len = le(extra, at + 2, 2);
    size_t field = at + 4, end = std::min(extra.size(), field + len);
    if (id == 1) {
      for (uint64_t* v : {&e.size, &e.stored_size, &local_offset})
        if (*v == 0xFFFFFFFF && field + 8 <= end) *v = le(extra, field, 8), field += 8;
    }
    at += 4 + len;
  }
}

ArchiveEntry parse_central(const std::string& dir, size_t& at, uint64_t& local_offset,
                           const std::string& path) {
  if (at + kCentralSize > dir.size() || le(dir, at, 4) != kCentralSig)
    throw damaged(path, "not a valid zip archive (bad central directory)");
  ArchiveEntry e;
  e.method = static_cast<uint16_t>(le(dir, at + 10, 2));
  e.crc32 = static_cast<uint32_t>(le(dir, at + 16, 4));
  e.stored_size = le(dir, at + 20, 4);
  e.size = le(dir, at + 24, 4);
  e.external_attributes = static_cast<uint32_t>(le(dir, at + 38, 4));
  uint64_t name_len = le(dir, at + 28, 2), extra_len = le(dir, at + 30, 2),
           comment_len = le(dir, at + 32, 2);
  local_offset = le(dir, at + 42, 4);
  if (at + kCentralSize + name_len + extra_len > dir.size())
    throw damaged(path, "not a valid zip archive (bad central directory)");
  e.name = dir.substr(at + kCentralSize, name_len);
  apply_zip64(dir.substr(at + kCentralSize + name_len, extra_len), e, local_offset);
  at += kCentralSize + name_len + extra_len + comment_len;
  return e;
}

// The local header repeats the name and gives its own extra length (PyTorch pads it to align data).
void locate_data(const Archive& a, uint64_t local_offset, ArchiveEntry& e) {
  const std::string& path = a.path();
  if (past_end(local_offset, kLocalSize + e.name.size(), a.file_size()))
    throw damaged(path, "truncated");
  std::string head = bytes_at(a, local_offset, kLocalSize + e.name.size());
  uint64_t name_len = le(head, 26, 2), extra_len = le(head, 28, 2);
  if (le(head, 0, 4) != kLocalSig || name_len != e.name.size() ||
      head.compare(kLocalSize, name_len, e.name) != 0)
    throw damaged(path, "not a valid zip archive (entry " + e.name + " has a bad local header)");
  e.offset = local_offset + kLocalSize + name_len + extra_len;
  if (past_end(e.offset, e.stored_size, a.file_size()))
    throw damaged(path, "truncated (entry " + e.name + " is cut off)");
  if (e.stored() && e.stored_size != e.size)
    throw damaged(path, "not a valid zip archive (entry " + e.name + " has inconsistent sizes)");
}

}  // namespace

Archive Archive::open(const std::string& path) {
  check_plain_file(path);
  return open(path, ReadOnlyFile::open(path));
}

Archive Archive::nested(const ArchiveEntry& entry) const {
  read(entry);  // stored, and its CRC-32 matching
  return open(path_ + ":" + entry.name, ReadOnlyFile::window(file_, entry.offset, entry.size));
}

Archive Archive::open(const std::string& path, std::shared_ptr<const ReadOnlyFile> file) {
  if (!file)
    throw Error(Exit::bad_input, "model file cannot be read", path, "check its permissions");
  Archive a;
  a.path_ = path;
  a.file_size_ = file->size();
  a.file_ = std::move(file);
  std::string magic = bytes_at(a, 0, std::min<uint64_t>(4, a.file_size_));
  if (magic.size() < 4 || le(magic, 0, 4) != kLocalSig)
    throw Error(Exit::bad_input, "model file is not a zip archive", path,
                "save the model with torch.jit.script(model).save(path)");
  const uint64_t tail = std::min<uint64_t>(a.file_size_, kEndSize + 0xFFFF);
  std::string tail_bytes = bytes_at(a, a.file_size_ - tail, tail);
  a.tail_offset_ = a.file_size_ - tail;
  a.tail_ = std::move(tail_bytes);
  Directory d = find_directory(a, a.tail_, a.tail_offset_);
  if (past_end(d.offset, d.size, a.file_size_)) throw damaged(path, "truncated");
  if (d.offset < a.tail_offset_ && d.offset + d.size >= a.tail_offset_) {
    // A directory longer than the tail: the kept bytes start with it, for LibTorch's reader too.
    a.tail_ = bytes_at(a, d.offset, a.tail_offset_ - d.offset) + a.tail_;
    a.tail_offset_ = d.offset;
  }
  std::string dir = bytes_at(a, d.offset, d.size);
  size_t at = 0;
  for (uint64_t i = 0; i < d.count; ++i) {
    uint64_t local_offset = 0;
    ArchiveEntry e = parse_central(dir, at, local_offset, path);
    locate_data(a, local_offset, e);
    a.entries_.push_back(std::move(e));
  }
  return a;
}

void Archive::read_at(uint64_t offset, void* out, uint64_t size) const {
  if (past_end(offset, size, file_size_)) throw damaged(path_, "truncated");
  if (offset >= tail_offset_ && !tail_.empty()) {
    std::memcpy(out, tail_.data() + (offset - tail_offset_), size);
    return;
  }
  if (!file_->read(offset, out, size)) throw damaged(path_, "truncated");
}

const ArchiveEntry* Archive::find(const std::string& name) const {
  for (const auto& e : entries_) {
    const std::string& n = e.name;
    if (n == name ||
        (n.size() > name.size() && n.compare(n.size() - name.size(), name.size(), name) == 0 &&
         n[n.size() - name.size() - 1] == '/'))
      return &e;
  }
  return nullptr;
}

bool Archive::has_part(const std::string& part) const {
  for (const auto& e : entries_)
    if (e.name.find(part) != std::string::npos) return true;
  return false;
}

std::string Archive::read(const ArchiveEntry& entry) const {
  if (!entry.stored())
    throw Error(Exit::bad_input, "archive entry " + entry.name + " is compressed", path_,
                "modrec reads only the uncompressed entries that torch.save writes");
  std::string bytes = bytes_at(*this, entry.offset, entry.size);
  check_crc(entry, bytes.data(), bytes.size());
  return bytes;
}

void Archive::verify_crc(const std::function<bool(const ArchiveEntry&)>& skip) const {
  std::vector<char> buffer(1 << 20);
  for (const auto& e : entries_) {
    if (!e.stored() || (skip && skip(e))) continue;
    uint32_t crc = 0;
    for (uint64_t done = 0; done < e.size;) {
      const uint64_t chunk = std::min<uint64_t>(e.size - done, buffer.size());
      read_at(e.offset + done, buffer.data(), chunk);
      crc = crc32_update(crc, buffer.data(), static_cast<size_t>(chunk));
      done += chunk;
    }
    if (crc != e.crc32) throw crc_mismatch(path_, e);
  }
}

void Archive::check_crc(const ArchiveEntry& entry, const void* data, size_t size) const {
  if (crc32_update(0, data, size) != entry.crc32) throw crc_mismatch(path_, entry);
}

namespace {
// Slicing-by-8 tables: table[k][b] is the CRC of byte b followed by k zero bytes.
using CrcTables = std::array<std::array<uint32_t, 256>, 8>;
CrcTables make_tables() {
  CrcTables t{};
  for (uint32_t b = 0; b < 256; ++b) {
    uint32_t c = b;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[0][b] = c;
  }
  for (uint32_t b = 0; b < 256; ++b)
    for (int k = 1; k < 8; ++k) t[k][b] = (t[k - 1][b] >> 8) ^ t[0][t[k - 1][b] & 0xFF];
  return t;
}
}  // namespace

uint32_t crc32_update(uint32_t crc, const void* data, size_t size) {
  static const CrcTables t = make_tables();
  auto p = static_cast<const unsigned char*>(data);
  crc = ~crc;
  for (; size >= 8; size -= 8, p += 8) {
    uint32_t lo = crc ^ (p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24);
    crc = t[7][lo & 0xFF] ^ t[6][(lo >> 8) & 0xFF] ^ t[5][(lo >> 16) & 0xFF] ^ t[4][lo >> 24] ^
          t[3][p[4]] ^ t[2][p[5]] ^ t[1][p[6]] ^ t[0][p[7]];
  }
  for (; size > 0; --size, ++p) crc = t[0][(crc ^ *p) & 0xFF] ^ (crc >> 8);
  return ~crc;
}

}  // namespace modrec
