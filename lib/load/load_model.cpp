#include "load/load_model.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/script.h>

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

void verify_compressed(const Archive& archive) {
  caffe2::serialize::PyTorchStreamReader reader(archive.path());
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

torch::jit::Module load_model(const std::string& path) {
  FileInfo info = inspect_file(path);
  if (info.kind != FileKind::torchscript)
    throw Error(Exit::bad_input, "model file " + describe(info), path, model_hint(info.kind));
  // LibTorch itself loads an archive with damaged weight bytes silently.
  Archive archive = Archive::open(path);
  archive.verify_crc();
  try {
    verify_compressed(archive);
    return torch::jit::load(path, torch::kCPU);
  } catch (const c10::Error& e) {
    throw cannot_load(path, e.what_without_backtrace());
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {
    throw cannot_load(path, e.what());
  }
}

}  // namespace modrec
