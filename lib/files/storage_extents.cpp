#include "files/storage_extents.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <vector>

#include "files/tensor_extent.h"
#include "util/error.h"
#include "values/ivalue_walk.h"

namespace modrec {
namespace {

std::string shape_text(const at::Tensor& t) {
  std::string out = std::string(c10::toString(t.scalar_type())) + " [";
  for (int64_t d = 0; d < t.dim(); ++d) out += (d ? ", " : "") + std::to_string(t.size(d));
  return out + "]";
}

// The bytes `t`'s storage can give it: the storage's size, and no more than the entry it was
// read from holds.
uint64_t available_bytes(const at::Tensor& t, const BackingEntry* entry) {
  const uint64_t bytes = t.storage().nbytes();
  return entry ? std::min<uint64_t>(bytes, entry->size) : bytes;
}

void check_tensor(const at::Tensor& t, const std::string& name, const BackingEntries& entries,
                  const std::string& path) {
  if (!t.defined() || t.is_meta() || t.layout() != at::kStrided || t.is_quantized() ||
      !t.has_storage())
    return;
  auto found = entries.find(t.storage().data());
  const BackingEntry* entry = found == entries.end() ? nullptr : &found->second;
  const int64_t item = static_cast<int64_t>(t.element_size());
  const int64_t elements = static_cast<int64_t>(available_bytes(t, entry)) / item;
  if (extent_fits(t.sizes(), t.strides(), t.storage_offset(), elements)) return;
  const std::string what =
      entry ? "archive entry " + entry->name + " holds " + std::to_string(entry->size) + " bytes"
            : "its storage holds " + std::to_string(t.storage().nbytes()) + " bytes";
  throw Error(Exit::bad_input,
              what + ", fewer than the tensor " + name + " (" + shape_text(t) +
                  ", storage offset " + std::to_string(t.storage_offset()) + ") reads",
              path, "the file was truncated or damaged after saving; save or copy it again");
}

std::string key_text(const c10::IValue& key) {
  return key.isString() ? key.toStringRef() : key.isInt() ? std::to_string(key.toInt()) : "?";
}

}  // namespace

bool is_data_record(const ArchiveEntry& e) {
  const size_t slash = e.name.find('/');
  return slash != std::string::npos && e.name.compare(slash + 1, 5, "data/") == 0;
}

RecordReads::RecordReads(const Archive& archive) {
  for (const ArchiveEntry& e : archive.entries())
    if (e.stored() && is_data_record(e)) records_.emplace(e.offset, e);
}

const ArchiveEntry* RecordReads::record_within(uint64_t pos, uint64_t n) const {
  auto after = records_.upper_bound(pos);
  if (after == records_.begin()) return nullptr;
  const ArchiveEntry& e = std::prev(after)->second;
  return pos + n <= e.offset + e.size ? &e : nullptr;
}

const ArchiveEntry* RecordReads::note(uint64_t pos, const void* buf, uint64_t n) {
  const ArchiveEntry* e = record_within(pos, n);
  if (!e || e->offset != pos || e->size != n) return nullptr;
  backing_[buf] = {e->name, e->size};
  return e;
}

// Depth first, with an explicit stack: a file's nesting is the file's to choose. A walk of its
// own, not values/ivalue_walk.h's: it enters objects (a module's attributes), visits a container
// shared between attributes once, and names places as Python indexes them ("layers[0].weight").
void check_storage_extents(const c10::IValue& root, const BackingEntries& entries,
                           const std::string& path) {
  std::vector<std::pair<c10::IValue, std::string>> stack{{root, ""}};
  std::set<const void*> seen;  // objects and containers shared between attributes
  const auto child = [](const std::string& parent, const std::string& name) {
    return parent.empty() ? name : parent + "." + name;
  };
  while (!stack.empty()) {
    auto [value, name] = std::move(stack.back());
    stack.pop_back();
    if (value.isTensor()) {
      check_tensor(value.toTensor(), name.empty() ? "(root)" : name, entries, path);
    } else if (value.isPtrType() && !seen.insert(value.internalToPointer()).second) {
      continue;
    } else if (value.isObject()) {
      const auto& object = value.toObjectRef();
      for (size_t i = 0; i < object.slots().size(); ++i)
        stack.emplace_back(object.getSlot(i), child(name, object.type()->getAttributeName(i)));
    } else if (value.isTuple() || value.isList()) {
      const auto items = items_of(value);
      for (size_t i = 0; i < items.size(); ++i)
        stack.emplace_back(items[i], name + "[" + std::to_string(i) + "]");
    } else if (value.isGenericDict()) {
      for (const auto& item : value.toGenericDict())
        stack.emplace_back(item.value(), name + "[" + key_text(item.key()) + "]");
    }
  }
}

}  // namespace modrec
