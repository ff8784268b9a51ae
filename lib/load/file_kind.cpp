#include "load/file_kind.h"

#include <filesystem>

#include "load/archive.h"
#include "load/pickle_head.h"
#include "util/error.h"
#include "util/read_only_file.h"
#include "util/regular_file.h"

namespace modrec {
namespace fs = std::filesystem;

namespace {

FileInfo kind_by_pickle(const std::string& data_pkl) {
  PickleHead head = read_pickle_head(data_pkl);
  if (head.global == "collections.OrderedDict") return {FileKind::state_dict, ""};
  if (head.global.empty() || head.global.rfind("torch._utils._rebuild", 0) == 0)
    return {FileKind::tensor_pickle, ""};
  return {FileKind::eager_module, head.global};
}

// torch.export.save writes "pt2" into archive_format (torch 2.8 on; older files hold
// serialized_exported_program.json instead), and so does AOTInductor's packager.
bool is_pt2(const Archive& archive) {
  if (archive.has("serialized_exported_program.json")) return true;
  const ArchiveEntry* format = archive.find("archive_format");
  return format && format->stored() && format->size < 64 && archive.read(*format) == "pt2";
}

// aoti_compile_and_package's compiled model (data/aotinductor/<model>/*.so), without the program
// (models/<name>.json) that torch.export.save writes and a package may hold beside it.
bool is_compiled_only(const Archive& archive) {
  if (!archive.has_part("/data/aotinductor/")) return false;
  for (const ArchiveEntry& e : archive.entries())
    if (e.name.find("/models/") != std::string::npos && e.name.ends_with(".json")) return false;
  return true;
}

FileInfo kind_by_entries(const Archive& archive) {
  if (archive.has("constants.pkl") || archive.has_part("/code/"))
    return {FileKind::torchscript, ""};
  if (is_pt2(archive))
    return {is_compiled_only(archive) ? FileKind::aoti_package : FileKind::exported, ""};
  const ArchiveEntry* data = archive.find("data.pkl");
  if (!data || !data->stored()) return {FileKind::other_zip, ""};
  return kind_by_pickle(archive.read(*data));
}

// sniff_file's answer, with what a special file is, and the file opened to read its first bytes.
FileInfo sniff(const std::string& path, std::shared_ptr<const ReadOnlyFile>* opened = nullptr) {
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (!fs::exists(status)) return {FileKind::missing, ""};
  if (fs::is_directory(status)) return {FileKind::directory, ""};
  if (const std::string special = non_regular_kind(path); !special.empty())
    return {FileKind::special, special};
  std::shared_ptr<const ReadOnlyFile> file = ReadOnlyFile::open(path);
  if (!file) return {FileKind::unreadable, ""};
  std::string head(std::min<uint64_t>(8, file->size()), '\0');
  if (!file->read(0, head.data(), head.size())) return {FileKind::unreadable, ""};
  if (opened) *opened = std::move(file);
  return {kind_by_magic(head), ""};
}

}  // namespace

FileKind kind_by_magic(std::string_view head) {
  if (head.empty()) return FileKind::empty;
  if (head.substr(0, 6) == "\x93NUMPY") return FileKind::numpy;
  if (static_cast<unsigned char>(head[0]) == 0x80) return FileKind::legacy_pickle;
  if (head.substr(0, 4) == "PK\x03\x04") return FileKind::zip;
  // A FlatBuffer's file identifier follows its 4-byte root offset: ExecuTorch's program.fbs
  // declares "ET12".
  if (head.size() >= 8 && head.substr(4, 4) == "ET12") return FileKind::executorch;
  return FileKind::not_zip;
}

FileKind sniff_file(const std::string& path) { return sniff(path).kind; }

FileInfo inspect_file(const std::string& path) {
  std::shared_ptr<const ReadOnlyFile> file;
  FileInfo sniffed = sniff(path, &file);
  if (sniffed.kind != FileKind::zip) return sniffed;
  try {
    auto archive = std::make_shared<const Archive>(Archive::open(path, std::move(file)));
    FileInfo info = kind_by_entries(*archive);
    info.archive = std::move(archive);
    return info;
  } catch (const Error& e) {
    std::string what = e.what();
    const std::string prefix = "model file ";
    return {FileKind::damaged, what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what};
  }
}

std::string describe(const FileInfo& info) {
  switch (info.kind) {
    case FileKind::missing:
      return "does not exist";
    case FileKind::directory:
      return "is a directory";
    case FileKind::special:
      return "is " + info.detail + ", not a regular file";
    case FileKind::unreadable:
      return "cannot be read";
    case FileKind::empty:
      return "is empty";
    case FileKind::not_zip:
      return "is not a zip archive, so not a TorchScript model";
    case FileKind::legacy_pickle:
      return "is a legacy (non-zip) torch.save pickle, not a TorchScript model";
    case FileKind::numpy:
      return "is a NumPy .npy array, not a TorchScript model";
    case FileKind::zip:
      return "is a zip archive";
    case FileKind::damaged:
      return info.detail;
    case FileKind::torchscript:
      return "is a TorchScript model";
    case FileKind::exported:
      return "is a torch.export program";
    case FileKind::aoti_package:
      return "is an AOTInductor package (compiled code, without the torch.export program it was "
             "compiled from)";
    case FileKind::executorch:
      return "is an ExecuTorch program (.pte), which modrec does not run";
    case FileKind::state_dict:
      return "is a state_dict, not a TorchScript model";
    case FileKind::eager_module:
      return "is an eager pickled module (torch.save(model)) of class " + info.detail +
             ", not a TorchScript model";
    case FileKind::tensor_pickle:
      return "is a tensor file (torch.save of tensors), not a TorchScript model";
    case FileKind::other_zip:
      return "is a zip archive without TorchScript code";
  }
  return "is not a TorchScript model";
}

std::string model_hint(FileKind kind) {
  const std::string save = "save the model with torch.jit.script(model).save(path)";
  switch (kind) {
    case FileKind::missing:
      return "check the path";
    case FileKind::directory:
    case FileKind::special:
      return "give the .pt file that torch.jit.save wrote";
    case FileKind::unreadable:
      return "check the file's permissions";
    case FileKind::damaged:
      return "the file is damaged; save the model again (torch.jit.script(model).save(path), or "
             "torch.export.save)";
    case FileKind::state_dict:
      return "load it into the model in Python (model.load_state_dict) and " + save;
    case FileKind::tensor_pickle:
    case FileKind::numpy:
      return "give tensors with --input; as the model, " + save;
    case FileKind::aoti_package:
      return "give the .pt2 that torch.export.save wrote of the program before "
             "aoti_compile_and_package";
    case FileKind::executorch:
      return "give the .pt2 that torch.export.save wrote of the program before it was lowered "
             "(to_edge, to_executorch)";
    default:
      return save;
  }
}

}  // namespace modrec
