#include "checkpoint/checkpoint.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "files/state_dict_pickle.h"
#include "files/tensor_extent.h"
#include "util/error.h"
#include "util/log.h"
#include "util/read_only_file.h"
#include "util/text.h"
#include "util/json_text.h"

namespace modrec {
namespace {
using nlohmann::json;
namespace fs = std::filesystem;

const std::string kResave =
    "the file is damaged or not a checkpoint; save it again (safetensors.torch.save_file, or "
    "torch.save(model.state_dict(), path))";

[[noreturn]] void bad(const std::string& what, const std::string& where,
                      const std::string& hint = kResave) {
  throw Error(Exit::bad_input, one_line(what), where, hint);
}

// a * b, or false when it overflows 2^63.
bool multiply(int64_t a, int64_t b, int64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

int64_t checked_numel(const std::vector<int64_t>& shape, const std::string& name,
                      const std::string& where) {
  int64_t n = 1;
  for (int64_t d : shape)
    if (d < 0 || !multiply(n, d, n)) bad("tensor " + name + " has an invalid shape", where);
  return n;
}

// "layers.10.w" after "layers.2.w": runs of digits compare as numbers.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t i2 = a.find_first_not_of("0123456789", i), j2 = b.find_first_not_of("0123456789", j);
      i2 = i2 == std::string::npos ? a.size() : i2, j2 = j2 == std::string::npos ? b.size() : j2;
      const std::string x = a.substr(i, i2 - i), y = b.substr(j, j2 - j);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = i2, j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

// No tensor's bytes may reach into another's (safetensors forbids it: a writer's bug, or a file
// crafted to make two names read one memory).
void check_overlap(std::vector<const CheckpointTensor*> tensors, const std::string& where) {
  std::sort(tensors.begin(), tensors.end(), [](auto* a, auto* b) { return a->offset < b->offset; });
  uint64_t reached = 0;
  const CheckpointTensor* last = nullptr;
  for (const CheckpointTensor* t : tensors) {
    if (t->offset < reached && t->bytes)
      bad("tensors " + last->name + " and " + t->name + " overlap in the file", where);
    if (t->bytes) reached = t->offset + t->bytes, last = t;
  }
}

// What read_json refused in a header or index whose text starts at byte `offset` of its file: a
// limit, in read_json's words (reported at byte 0), or the byte where the text stops being JSON
// (not e.what(): it quotes the offending bytes, which may be no UTF-8 at all).
std::string json_defect(const json::parse_error& e, uint64_t offset) {
  const std::string what = e.what(), tag = "parse error: ";
  if (e.byte == 0 && what.find(tag) != std::string::npos)
    return what.substr(what.find(tag) + tag.size());
  return "is not JSON in UTF-8 (at byte " + std::to_string(offset + e.byte) + ")";
}

// `data`, `data_size`: where the data after the header starts in the file, and its bytes.
CheckpointTensor safetensors_tensor(const std::string& name, const json& entry, uint64_t data,
                                    uint64_t data_size, const std::string& where) {
  CheckpointTensor t{name};
  const json* dtype = entry.is_object() && entry.contains("dtype") ? &entry["dtype"] : nullptr;
  if (!dtype || !dtype->is_string() || !entry.contains("shape") || !entry["shape"].is_array() ||
      !entry.contains("data_offsets") || !entry["data_offsets"].is_array() ||
      entry["data_offsets"].size() != 2)
    bad("tensor " + name + "'s header entry lacks dtype, shape or data_offsets", where);
  if (!dtype_from_safetensors(dtype->get<std::string>(), t.dtype))
    bad("tensor " + name + " has dtype " + dtype->get<std::string>() +
            ", which modrec does not read",
        where, "convert it to a dtype torch names (float32, bfloat16, float8_e4m3fn, int64, ...)");
  for (const json& d : entry["shape"]) {
    if (!d.is_number_unsigned()) bad("tensor " + name + " has an invalid shape", where);
    t.shape.push_back(d.get<int64_t>());
  }
  const json& offsets = entry["data_offsets"];
  if (!offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned() ||
      offsets[1].get<uint64_t>() < offsets[0].get<uint64_t>())
    bad("tensor " + name + "'s data offsets are not an increasing pair", where);
  const uint64_t begin = offsets[0].get<uint64_t>(), end = offsets[1].get<uint64_t>();
  if (end > data_size)
    bad("tensor " + name + "'s data offsets [" + std::to_string(begin) + ", " +
            std::to_string(end) + ") lie outside the file's " + std::to_string(data_size) +
            " bytes of data",
        where);
  int64_t expected = 0;
  if (!multiply(checked_numel(t.shape, name, where), dtype_bytes(t.dtype), expected) ||
      static_cast<uint64_t>(expected) != end - begin)
    bad("tensor " + name + "'s data offsets span " + std::to_string(end - begin) +
            " bytes, its shape and dtype " + std::to_string(expected),
        where);
  t.offset = data + begin;
  t.bytes = end - begin;
  return t;
}

// safetensors' own reader refuses a longer header (MAX_HEADER_SIZE): no file it wrote has one.
constexpr uint64_t kMaxHeaderBytes = 100'000'000;

// 8-byte little-endian header length N, N bytes of JSON, then the data the offsets point into.
void read_safetensors(const std::string& path, int file, Checkpoint& out) {
  auto f = ReadOnlyFile::open(path);
  if (!f) bad("checkpoint cannot be read", path, "check the file's permissions");
  unsigned char length[8] = {};
  if (f->size() < 8 || !f->read(0, length, 8)) bad("safetensors header is cut off", path);
  uint64_t n = 0;
  for (int i = 7; i >= 0; --i) n = n << 8 | length[i];
  if (n > f->size() - 8)
    bad("safetensors header length " + std::to_string(n) + " runs past the end of the file (" +
            std::to_string(f->size()) + " bytes): the header is cut off",
        path);
  if (n > kMaxHeaderBytes)
    bad("safetensors header length " + std::to_string(n) +
            " is over the safetensors format's limit of " + std::to_string(kMaxHeaderBytes) +
            " bytes",
        path);
  std::string text(n, '\0');
  if (!f->read(8, text.data(), n)) bad("safetensors header cannot be read", path);
  json header;
  try {
    header = read_json(text);
  } catch (const json::parse_error& e) {
    bad("safetensors header " + json_defect(e, 8), path);
  }
  if (!header.is_object()) bad("safetensors header is not a JSON object", path);
  const uint64_t data = 8 + n;
  std::vector<CheckpointTensor> tensors;
  out.held += header.size() - header.contains("__metadata__");
  for (const auto& [name, entry] : header.items()) {
    if (name == "__metadata__") {
      if (entry.is_object()) out.metadata.update(entry);
      continue;
    }
    tensors.push_back(safetensors_tensor(name, entry, data, f->size() - data, path));
    tensors.back().file = file;
  }
  std::vector<const CheckpointTensor*> layout;
  for (const auto& t : tensors) layout.push_back(&t);
  check_overlap(layout, path);
  std::sort(tensors.begin(), tensors.end(),
            [](const auto& a, const auto& b) { return natural_less(a.name, b.name); });
  out.tensors.insert(out.tensors.end(), tensors.begin(), tensors.end());
}

bool contiguous(const PickledTensor& p) {
  int64_t expected = 1;
  for (size_t i = p.shape.size(); i-- > 0;) {
    if (p.shape[i] != 1 && p.stride[i] != expected) return false;
    expected *= p.shape[i];
  }
  return true;
}

// data.pkl names each tensor's storage; the storage is the stored entry data/<key>.
void read_torch_save(const std::string& path, const Archive& archive, int file, Checkpoint& out) {
  const ArchiveEntry* pickle = archive.find("data.pkl");
  if (!pickle) bad("torch.save archive has no data.pkl", path);
  const PickledState state = read_state_dict_pickle(archive.read(*pickle), path);
  if (!state.passed_over.empty())
    log::warn(path, ": its pickle holds ", state.passed_over.size(),
              state.passed_over.size() == 1 ? " object" : " objects",
              " without tensors that modrec does not show (", log::listed(state.passed_over), ")");
  for (const PickledSubclass& s : state.subclasses)
    out.subclasses.push_back({s.name, s.type, s.dtype, s.shape});
  out.held += state.tensors.size();
  for (const PickledTensor& p : state.tensors) {
    CheckpointTensor t{p.name, p.dtype, p.shape, file};
    t.subclass = p.subclass;
    const ArchiveEntry* storage = archive.find("data/" + p.storage);
    if (!storage || !storage->stored())
      bad("tensor " + p.name + "'s storage data/" + p.storage + " is missing or compressed", path);
    const int64_t numel = checked_numel(p.shape, p.name, path);
    const uint64_t elem = static_cast<uint64_t>(dtype_bytes(p.dtype));
    t.contiguous = p.stride.size() == p.shape.size() && contiguous(p);
    t.bytes = static_cast<uint64_t>(numel) * elem;
    t.offset = storage->offset + static_cast<uint64_t>(p.storage_offset) * elem;
    const int64_t stored = static_cast<int64_t>(storage->size / elem);
    if (p.storage_offset < 0 ||
        (t.contiguous && !extent_fits(p.shape, p.stride, p.storage_offset, stored)))
      bad("tensor " + p.name + " reaches past the end of its storage data/" + p.storage, path);
    out.tensors.push_back(std::move(t));
  }
}

// One file of a checkpoint: safetensors or torch.save.
void read_file(const std::string& path, const FileInfo& info, Checkpoint& out) {
  const int index = static_cast<int>(out.files.size());
  out.files.push_back(path);
  if (info.kind == FileKind::safetensors) return read_safetensors(path, index, out);
  if (info.kind == FileKind::state_dict) return read_torch_save(path, *info.archive, index, out);
  throw Error(Exit::bad_input, "checkpoint file " + describe(info), path,
              "give a .safetensors file, a torch.save'd state_dict or their index");
}

// A weight_map value is a shard's file name in the index's folder (transformers joins it to that
// folder): a path into another folder or an absolute one would make an index read files it was
// not shipped with, so it is refused, not resolved.
bool plain_file_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of(std::string("/\\\0", 3)) == std::string::npos;
}

// The index's weight_map as tensor -> shard file name, each value checked; its shards in the
// order they are first named.
std::map<std::string, std::string> weight_map(const json& index, const std::string& path,
                                              std::vector<std::string>& shards) {
  const json* map =
      index.is_object() && index.contains("weight_map") ? &index["weight_map"] : nullptr;
  if (!map || !map->is_object()) bad("checkpoint index's weight_map is not an object", path);
  std::map<std::string, std::string> shard_of;
  for (const auto& [name, shard] : map->items()) {
    if (!shard.is_string()) bad("checkpoint index maps tensor " + name + " to no file name", path);
    const std::string& file = shard.get_ref<const std::string&>();
    if (!plain_file_name(file))
      bad("checkpoint index maps tensor " + name + " to \"" + file +
              "\", which is not a file name in the index's folder",
          path,
          "an index names each shard by its file name, the shard beside the index "
          "(model-00001-of-00002.safetensors); save the checkpoint again with save_pretrained");
    if (std::find(shards.begin(), shards.end(), file) == shards.end()) shards.push_back(file);
    shard_of.emplace(name, file);
  }
  return shard_of;
}

// {"weight_map": {tensor: shard file}}: the shards read in the order they are first named, each
// mapped tensor looked for in its own. A shard's tensor the index does not map to that shard is
// left out, as transformers' loader leaves it out, and one warning counts them.
void read_index(const std::string& path, Checkpoint& out) {
  auto f = ReadOnlyFile::open(path);
  if (f && f->size() > kMaxIndexBytes)
    bad("checkpoint index of " + std::to_string(f->size()) + " bytes is larger than any index (" +
            std::to_string(kMaxIndexBytes) + " bytes)",
        path);
  std::string text(f ? f->size() : 0, '\0');
  if (!f || !f->read(0, text.data(), text.size())) bad("checkpoint index cannot be read", path);
  json index;
  try {
    index = read_json(text);
  } catch (const json::parse_error& e) {
    bad("checkpoint index " + json_defect(e, 0), path,
        "save the checkpoint again with save_pretrained");
  }
  std::vector<std::string> shards;
  const std::map<std::string, std::string> shard_of = weight_map(index, path, shards);
  if (index.contains("metadata") && index["metadata"].is_object())
    out.metadata.update(index["metadata"]);
  const fs::path dir = fs::path(path).parent_path();
  std::vector<std::string> left_out;  // "2 in model-00001-of-00002.safetensors"
  int64_t left = 0;
  for (const std::string& shard : shards) {
    const std::string shard_path = (dir / shard).string();
    const FileInfo info = inspect_file(shard_path);
    if (info.kind == FileKind::missing)
      bad("checkpoint index names shard " + shard + ", which does not exist", path,
          "put every shard the index names beside it (" + shard_path + ")");
    const size_t first = out.tensors.size();
    read_file(shard_path, info, out);
    const auto unmapped =
        std::stable_partition(out.tensors.begin() + static_cast<ptrdiff_t>(first),
                              out.tensors.end(), [&](const CheckpointTensor& t) {
                                const auto it = shard_of.find(t.name);
                                return it != shard_of.end() && it->second == shard;
                              });
    if (const auto n = out.tensors.end() - unmapped)
      left_out.push_back(std::to_string(n) + " in " + shard), left += n;
    out.tensors.erase(unmapped, out.tensors.end());
  }
  if (!left_out.empty())
    log::warn(path, ": ", left, left == 1 ? " tensor" : " tensors",
              " of its shards not named in its weight_map left out, as transformers leaves them "
              "out: ",
              log::listed(left_out));
  std::set<std::string> found;
  for (const CheckpointTensor& t : out.tensors) found.insert(t.name);
  for (const auto& [name, shard] : shard_of)
    if (!found.count(name))
      bad("checkpoint index maps tensor " + name + " to shard " + shard +
              ", which does not hold it",
          path);
  std::stable_sort(out.tensors.begin(), out.tensors.end(),
                   [](const auto& a, const auto& b) { return natural_less(a.name, b.name); });
}

}  // namespace

int64_t CheckpointTensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

std::string CheckpointTensor::leaf() const {
  const size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

const char* format_name(CheckpointFormat format) {
  switch (format) {
    case CheckpointFormat::safetensors:
      return "safetensors";
    case CheckpointFormat::torch_save:
      return "torch.save";
    case CheckpointFormat::sharded:
      return "sharded";
  }
  return "";
}

Checkpoint read_checkpoint(const std::string& path, const FileInfo& file) {
  if (file.kind == FileKind::checkpoint_folder) {
    // The file from_pretrained reads, under the folder's name.
    const std::string inner = (fs::path(path) / file.detail).string();
    Checkpoint out = read_checkpoint(inner, inspect_file(inner));
    out.path = path;
    return out;
  }
  Checkpoint out;
  out.path = path;
  if (file.kind == FileKind::checkpoint_index) {
    out.format = CheckpointFormat::sharded;
    read_index(path, out);
    return out;
  }
  out.format = file.kind == FileKind::safetensors ? CheckpointFormat::safetensors
                                                  : CheckpointFormat::torch_save;
  read_file(path, file, out);
  return out;
}

Checkpoint read_checkpoint(const std::string& path) {
  return read_checkpoint(path, inspect_file(path));
}

}  // namespace modrec
