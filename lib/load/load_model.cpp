#include "load/load_model.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/script.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <regex>

#include "load/archive.h"
#include "load/file_kind.h"
#include "load/version.h"
#include "util/error.h"

namespace modrec {

namespace {

// LibTorch inflates the compressed (code) entries without checking their CRC-32, and damaged
// code then fails with a misleading TorchScript parse error, or worse, parses.
// Deflate expands at most 1032:1, so a larger claimed size is damage, and must be refused before
// LibTorch allocates it (a tiny file could otherwise ask for gigabytes).
constexpr uint64_t kMaxDeflateRatio = 1032;

void verify_compressed(const Archive& archive, caffe2::serialize::PyTorchStreamReader& reader) {
  for (const auto& e : archive.entries()) {
    if (e.stored()) continue;
    if (e.size > kMaxDeflateRatio * e.stored_size + 64)
      throw Error(Exit::bad_input,
                  "archive entry " + e.name + " is damaged (impossible uncompressed size)",
                  archive.path(), "the file was corrupted after saving; save or copy it again");
    auto [data, size] = reader.getRecord(e.name.substr(e.name.find('/') + 1));
    archive.check_crc(e, data.get(), size);
  }
}

// A tensor's bytes in a TorchScript archive: <archive>/data/<storage key>.
bool is_data_record(const ArchiveEntry& e) {
  const size_t slash = e.name.find('/');
  return slash != std::string::npos && e.name.compare(slash + 1, 5, "data/") == 0;
}

// LibTorch's zip reader reads through this rather than opening the file again: from the
// Archive's open file, the directory from the bytes read when it was opened. With Weights::meta
// a read of a data record (miniz reads a stored entry's bytes in one call) fills nothing:
// LibTorch's unpickler moves the storage to the meta device at once, never looking at its bytes.
class ArchiveAdapter final : public caffe2::serialize::ReadAdapterInterface {
 public:
  ArchiveAdapter(std::shared_ptr<const Archive> archive, Weights weights)
      : archive_(std::move(archive)) {
    if (weights == Weights::meta)
      for (const auto& e : archive_->entries())
        if (e.stored() && is_data_record(e)) unread_.emplace(e.offset, e.size);
  }
  size_t size() const override { return archive_->file_size(); }
  // Errors are short reads here: miniz, a C library, cannot pass an exception on; LibTorch then
  // throws its own, which cannot_load words.
  size_t read(uint64_t pos, void* buf, size_t n, const char* /*what*/) const override {
    if (pos >= size()) return 0;
    n = static_cast<size_t>(std::min<uint64_t>(n, size() - pos));
    if (is_unread(pos, n)) return n;
    try {
      archive_->read_at(pos, buf, n);
      return n;
    } catch (const Error&) {
      return 0;
    }
  }

 private:
  bool is_unread(uint64_t pos, size_t n) const {
    auto after = unread_.upper_bound(pos);
    if (after == unread_.begin()) return false;
    const auto& [offset, size] = *std::prev(after);
    return pos + n <= offset + size;
  }

  std::shared_ptr<const Archive> archive_;
  std::map<uint64_t, uint64_t> unread_;  // data records not read: offset -> size
};

// A file from a newer PyTorch can call an operator this LibTorch does not have: only a modrec
// built on a LibTorch that has it can run the model.
Error cannot_load(const std::string& path, const std::string& why) {
  const std::string newer =
      "use a modrec built on a newer LibTorch (this one is built on " + libtorch_version() + ")";
  std::smatch op;
  if (std::regex_search(why, op, std::regex("Unknown builtin op: ([A-Za-z0-9_:.]*[A-Za-z0-9_])")))
    return Error(Exit::bad_input,
                 "model file needs the operator " + op.str(1) + ", which LibTorch " +
                     libtorch_version() + " does not have",
                 path, newer);
  return Error(Exit::bad_input, "model file cannot be loaded: " + first_line(why), path,
               "if it was saved by a newer PyTorch, " + newer);
}

}  // namespace

torch::jit::Module load_model(const std::string& path, const FileInfo& file, Weights weights) {
  if (file.kind != FileKind::torchscript)
    throw Error(Exit::bad_input, "model file " + describe(file), path, model_hint(file.kind));
  // LibTorch itself loads an archive with damaged weight bytes silently.
  file.archive->verify_crc(weights == Weights::meta ? is_data_record : nullptr);
  try {
    auto adapter = std::make_shared<ArchiveAdapter>(file.archive, weights);
    caffe2::serialize::PyTorchStreamReader reader(adapter);
    verify_compressed(*file.archive, reader);
    if (weights == Weights::meta) return torch::jit::load(adapter, at::Device(at::kMeta));
    return torch::jit::load(adapter, torch::kCPU);
  } catch (const c10::Error& e) {
    throw cannot_load(path, e.what_without_backtrace());
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw cannot_load(path, e.what());
  }
}

torch::jit::Module load_model(const std::string& path) {
  return load_model(path, inspect_file(path), Weights::read);
}

}  // namespace modrec
