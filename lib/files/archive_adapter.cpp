#include "files/archive_adapter.h"

#include <algorithm>

namespace modrec {

ArchiveAdapter::ArchiveAdapter(std::shared_ptr<const Archive> archive, bool read_data)
    : archive_(std::move(archive)), read_data_(read_data), records_(*archive_) {}

size_t ArchiveAdapter::read(uint64_t pos, void* buf, size_t n, const char* /*what*/) const {
  if (pos >= size()) return 0;
  n = static_cast<size_t>(std::min<uint64_t>(n, size() - pos));
  if (!read_data_ && records_.record_within(pos, n)) return n;
  try {
    archive_->read_at(pos, buf, n);
  } catch (const Error&) {
    return 0;
  }
  const ArchiveEntry* record = records_.note(pos, buf, n);
  if (!record) return n;
  try {
    archive_->check_crc(*record, buf, n);
  } catch (const Error& e) {
    if (!damaged_) damaged_ = e;
    return 0;
  }
  checked_.insert(record->name);
  return n;
}

void ArchiveAdapter::throw_if_damaged() const {
  if (damaged_) throw *damaged_;
}

void ArchiveAdapter::verify_unread() const {
  archive_->verify_crc(
      [this](const ArchiveEntry& e) { return !is_data_record(e) || checked_.count(e.name) > 0; });
}

}  // namespace modrec
