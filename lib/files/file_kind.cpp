#include "files/file_kind.h"

#include <algorithm>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

#include "files/archive.h"
#include "files/pickle_head.h"
#include "util/error.h"
#include "util/package_half.h"
#include "util/read_only_file.h"
#include "util/regular_file.h"
#include "util/json_text.h"

namespace modrec {
namespace fs = std::filesystem;

namespace {

FileInfo kind_by_pickle(const std::string& data_pkl) {
  PickleHead head = read_pickle_head(data_pkl);
  // model.state_dict() is an OrderedDict; a dict is a state_dict or a training checkpoint holding
  // some ({"model": ..., "optimizer": ...}).
  if (head.global == "collections.OrderedDict" || head.first_op == '}')
    return {FileKind::state_dict, ""};
  if (head.global.empty() || head.global.rfind("torch._utils._rebuild", 0) == 0)
    return {FileKind::tensor_pickle, head.first_op == ']' ? "a list" : ""};
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

FileInfo kind_by_json(const ReadOnlyFile& file) {
  if (file.size() > kMaxIndexBytes) return {FileKind::json, ""};
  std::string text(file.size(), '\0');
  if (!file.read(0, text.data(), text.size())) return {FileKind::unreadable, ""};
  const auto json = read_json_or_discarded(text);
  if (json.is_object() && json.contains("weight_map")) return {FileKind::checkpoint_index, ""};
  return {FileKind::json, ""};
}

// A folder save_pretrained wrote, named by the first of kPretrainedWeights it holds; else a
// directory.
FileInfo kind_of_folder(const std::string& path) {
  for (const char* name : kPretrainedWeights) {
    std::error_code ec;
    const auto status = fs::status(fs::path(path) / name, ec);
    if (fs::exists(status) && !fs::is_directory(status)) return {FileKind::checkpoint_folder, name};
  }
  return {FileKind::directory, ""};
}

// What a file named as a checkpoint is when its bytes tell nothing else (see inspect_file).
FileKind kind_by_name(const std::string& path, FileKind sniffed) {
  if (sniffed != FileKind::empty && sniffed != FileKind::not_zip && sniffed != FileKind::json)
    return sniffed;
  if (path.ends_with(".safetensors")) return FileKind::safetensors;
  if (path.ends_with(".index.json")) return FileKind::checkpoint_index;
  return sniffed;
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
  std::string head(std::min<uint64_t>(16, file->size()), '\0');
  if (!file->read(0, head.data(), head.size())) return {FileKind::unreadable, ""};
  if (opened) *opened = std::move(file);
  return {kind_by_magic(head), ""};
}

}  // namespace

FileKind kind_by_magic(std::string_view head) {
  if (head.empty()) return FileKind::empty;
  // JSON text starts with '{' (after white space) and holds no control bytes, which a
  // safetensors header length below 2^56 does (its high bytes are zero).
  const size_t text = head.find_first_not_of(" \t\r\n");
  const bool control = std::any_of(head.begin(), head.end(),
                                   [](char c) { return static_cast<unsigned char>(c) < 0x09; });
  if (text != std::string_view::npos && head[text] == '{' && !control) return FileKind::json;
  // safetensors: the header's length, then the header, a JSON object ('[' too: a header that is
  // no object is a damaged safetensors file). Before the pickle: the length's low byte may be
  // 0x80. No other format here has '{' or '[' at byte 8.
  if (head.size() > 8 && (head[8] == '{' || head[8] == '[')) return FileKind::safetensors;
  if (head.substr(0, 6) == "\x93NUMPY") return FileKind::numpy;
  if (static_cast<unsigned char>(head[0]) == 0x80) return FileKind::legacy_pickle;
  if (head.substr(0, 4) == "PK\x03\x04") return FileKind::zip;
  // A FlatBuffer's file identifier follows its 4-byte root offset: ExecuTorch's program.fbs
  // declares "ET12".
  if (head.size() >= 8 && head.substr(4, 4) == "ET12") return FileKind::executorch;
  return FileKind::not_zip;
}

FileKind sniff_file(const std::string& path) { return sniff(path).kind; }

std::string pretrained_weight_names() {
  std::string names;
  for (const char* name : kPretrainedWeights)
    names += (names.empty() ? "" : ", ") + std::string(name);
  return names;
}

namespace {

// inspect_file's first look: the half of a package holding a program and its compiled code that
// `path` names (util/package_half.h). The compiled half is an aoti_package, the program exported;
// Error(Exit::bad_input) when the file holds no such two halves.
std::optional<FileInfo> half_of_package(const std::string& path) {
  const std::optional<PackageHalf> half = package_half(path);
  if (!half) return std::nullopt;
  const std::string& package = half->file;
  FileInfo info = inspect_file(package);
  if (info.kind != FileKind::exported || !info.archive->has_part("/data/aotinductor/"))
    throw Error(
        Exit::bad_input,
        "model file names a half of a package holding a program and its compiled code, and " +
            package +
            (info.kind == FileKind::exported       ? " holds no compiled code"
             : info.kind == FileKind::aoti_package ? " holds compiled code only"
                                                   : " " + describe(info)),
        path, "give " + package + " itself");
  if (half->half == "compiled") info.kind = FileKind::aoti_package;
  return info;
}

}  // namespace

FileInfo inspect_file(const std::string& path) {
  if (std::optional<FileInfo> half = half_of_package(path)) return std::move(*half);
  std::shared_ptr<const ReadOnlyFile> file;
  FileInfo sniffed = sniff(path, &file);
  if (sniffed.kind == FileKind::directory) return kind_of_folder(path);
  if (sniffed.kind == FileKind::json) sniffed = kind_by_json(*file);
  if (sniffed.kind != FileKind::zip) return {kind_by_name(path, sniffed.kind), sniffed.detail};
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
      return "is a directory, and no save_pretrained folder: it holds none of " +
             pretrained_weight_names();
    case FileKind::special:
      return "is " + info.detail + ", not a regular file";
    case FileKind::unreadable:
      return "cannot be read";
    case FileKind::empty:
      return "is empty";
    case FileKind::not_zip:
      return "is not a zip archive, so not a TorchScript model";
    case FileKind::legacy_pickle:
      return "is a legacy (non-zip) torch.save pickle, which modrec does not read";
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
      return "is an ExecuTorch program (.pte)";
    case FileKind::state_dict:
      return "is a state_dict, not a TorchScript model";
    case FileKind::eager_module:
      return "is an eager pickled module (torch.save(model)) of class " + info.detail +
             ", not a TorchScript model";
    case FileKind::tensor_pickle:
      return "is a tensor file (torch.save of " + (info.detail.empty() ? "tensors" : info.detail) +
             "), neither a model nor a state_dict (a dict of tensors)";
    case FileKind::other_zip:
      return "is a zip archive without TorchScript code";
    case FileKind::safetensors:
      return "is a safetensors checkpoint (tensors without the model's code), not a TorchScript "
             "model";
    case FileKind::json:
      return "is a JSON file, not a TorchScript model";
    case FileKind::checkpoint_index:
      return "is a sharded checkpoint's index (tensors without the model's code), not a "
             "TorchScript model";
    case FileKind::checkpoint_folder:
      return "is a save_pretrained folder (its checkpoint " + info.detail +
             ": tensors without the model's code), not a model";
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
    case FileKind::legacy_pickle:
      return "load it with torch.load and save it again in torch's zip format: "
             "torch.save(model.state_dict(), path) for a checkpoint, "
             "torch.jit.script(model).save(path) or torch.export.save for a model";
    case FileKind::state_dict:
    case FileKind::safetensors:
    case FileKind::checkpoint_index:
    case FileKind::checkpoint_folder:
      return "load it into the model in Python (model.load_state_dict), then save the model with "
             "torch.export.save(torch.export.export(model, args), path), modrec.export, or "
             "torch.jit.script(model).save(path); summary, check and diff read the checkpoint "
             "itself";
    case FileKind::tensor_pickle:
      return "give tensors with --input; as the model, " + save +
             "; as a checkpoint, torch.save(model.state_dict(), path)";
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

bool is_checkpoint(FileKind kind) {
  return kind == FileKind::state_dict || kind == FileKind::safetensors ||
         kind == FileKind::checkpoint_index || kind == FileKind::checkpoint_folder;
}

bool is_model(FileKind kind) {
  return kind == FileKind::torchscript || kind == FileKind::exported ||
         kind == FileKind::aoti_package || kind == FileKind::executorch;
}

void refuse_model_file(const std::string& path, const FileInfo& info) {
  throw Error(Exit::bad_input, "model file " + describe(info), path, model_hint(info.kind));
}

}  // namespace modrec
