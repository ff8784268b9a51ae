#include "load/load_model.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/script.h>

#include <algorithm>
#include <optional>
#include <regex>

#include "files/archive.h"
#include "files/file_kind.h"
#include "ops/meta/meta_import.h"
#include "load/operator_libraries.h"
#include "files/archive_adapter.h"
#include "files/state_dict_pickle.h"
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

// LibTorch builds a pickle's values and frees them recursively: a data.pkl or constants.pkl of
// 200,000 nested lists overflowed the stack (SIGSEGV). Every pickle of the archive is walked by
// modrec's own machine first, which refuses nesting deeper than torch.save's.
void check_pickles(const Archive& archive, caffe2::serialize::PyTorchStreamReader& reader) {
  for (const auto& e : archive.entries()) {
    if (!e.name.ends_with(".pkl") && !e.name.ends_with(".debug_pkl")) continue;
    std::string bytes;
    if (e.stored()) {
      bytes = archive.read(e);
    } else {
      auto [data, size] = reader.getRecord(e.name.substr(e.name.find('/') + 1));
      bytes.assign(static_cast<const char*>(data.get()), size);
    }
    check_pickle_nesting(bytes, archive.path(), "archive entry " + e.name,
                         "the file was corrupted after saving; save or copy it again");
  }
}

// The operator a model calls that no registered library has: "torchvision::nms" from LibTorch's
// "Unknown builtin op: torchvision::nms."; empty for other failures.
std::string missing_operator(const std::string& why) {
  std::smatch op;
  if (!std::regex_search(why, op, std::regex("Unknown builtin op: ([A-Za-z0-9_:.]*[A-Za-z0-9_])")))
    return "";
  return op.str(1);
}

std::string namespace_of(const std::string& op) { return op.substr(0, op.find("::")); }

// The file format version torch.jit.save recorded (its `version` entry), if readable.
std::optional<uint64_t> format_version(const Archive& archive) {
  const ArchiveEntry* entry = archive.find("version");
  if (!entry || !entry->stored() || entry->size > 32) return std::nullopt;
  try {
    return std::stoull(archive.read(*entry));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// An operator of a namespace registered (LibTorch's own, or a loaded library's) is one a newer
// release has; one of another namespace comes from an operator library that was not loaded.
// Another failure is put down to a newer PyTorch only when the file's format version is newer
// than this LibTorch reads.
Error cannot_load(const Archive& archive, const std::string& why) {
  const std::string& path = archive.path();
  const std::string newer =
      "use a modrec built on a newer LibTorch (this one is built on " + libtorch_version() + ")";
  const std::string op = missing_operator(why);
  if (op.empty()) {
    const auto version = format_version(archive);
    if (version && *version > caffe2::serialize::kMaxSupportedFileFormatVersion)
      return Error(Exit::bad_input,
                   "model file has format version " + std::to_string(*version) + ", newer than " +
                       "LibTorch " + libtorch_version() + " reads: " + first_line(why),
                   path, newer);
    return Error(Exit::bad_input, "model file cannot be loaded: " + first_line(why), path,
                 "save the model again with torch.jit.save");
  }
  const std::string ns = namespace_of(op);
  if (!namespace_registered(ns))
    return Error(Exit::bad_input,
                 "model file needs the operator " + op + " of namespace " + ns +
                     ", which neither LibTorch nor a loaded operator library provides",
                 path, namespace_hint(ns));
  return Error(Exit::bad_input,
               "model file needs the operator " + op + ", which LibTorch " + libtorch_version() +
                   " does not have",
               path, newer);
}

// torch::jit::load through the archive's open file (data records unread with Weights::meta), or
// nullopt and the reason it failed in `why`.
std::optional<torch::jit::Module> try_load(
    const std::shared_ptr<caffe2::serialize::ReadAdapterInterface>& adapter, Weights weights,
    std::string& why) {
  std::optional<MetaImport> meta_constants;
  if (weights == Weights::meta) meta_constants.emplace();
  try {
    return torch::jit::load(
        adapter, weights == Weights::meta ? at::Device(at::kMeta) : at::Device(torch::kCPU));
  } catch (const c10::Error& e) {
    why = e.what_without_backtrace();
  } catch (const std::exception& e) {
    why = e.what();
  }
  return std::nullopt;
}

}  // namespace

torch::jit::Module load_model(const std::string& path, const FileInfo& file, Weights weights) {
  if (file.kind != FileKind::torchscript) refuse_model_file(path, file);
  // LibTorch itself loads an archive with damaged bytes silently. The data records (the weights)
  // are checked as LibTorch reads them, the rest here.
  file.archive->verify_crc(is_data_record);
  auto adapter = std::make_shared<ArchiveAdapter>(file.archive, weights == Weights::read);
  try {
    caffe2::serialize::PyTorchStreamReader reader(adapter);
    verify_compressed(*file.archive, reader);
    check_pickles(*file.archive, reader);
  } catch (const c10::Error& e) {
    throw cannot_load(*file.archive, e.what_without_backtrace());
  }
  // An operator of a namespace LibTorch lacks: the torch environment's library that provides it
  // (torchvision's) is loaded, once per namespace, and the load tried again.
  std::string why;
  for (;;) {
    adapter->forget();
    if (auto module = try_load(adapter, weights, why)) {
      if (weights == Weights::read) adapter->verify_unread();
      check_storage_extents(module->_ivalue(), adapter->backing(), path);
      return std::move(*module);
    }
    adapter->throw_if_damaged();
    const std::string op = missing_operator(why);
    if (op.empty() || !load_namespace_library(namespace_of(op)))
      throw cannot_load(*file.archive, why);
  }
}

torch::jit::Module load_model(const std::string& path) {
  return load_model(path, inspect_file(path), Weights::read);
}

}  // namespace modrec
