#include "tensor_files/read_inputs.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/import_read.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>

#include "files/archive.h"
#include "files/pickle_head.h"
#include "files/state_dict_pickle.h"
#include "files/archive_adapter.h"
#include "tensor_files/npy.h"
#include "tensor_files/pickle_lengths.h"
#include "util/error.h"
#include "util/regular_file.h"
#include "values/ivalue_walk.h"

namespace modrec {

namespace {

const char kSave[] = "save a tensor or a tuple of tensors with torch.save(x, path)";

Error bad_input(const std::string& path, const std::string& what, const std::string& hint = kSave) {
  return Error(Exit::bad_input, "input file " + what, path, hint);
}

// `size` bytes from the start (the whole file: std::nullopt).
std::string read_bytes(const ReadOnlyFile& file, const std::string& path,
                       std::optional<uint64_t> size = std::nullopt) {
  std::string bytes(std::min(file.size(), size.value_or(file.size())), '\0');
  if (!file.read(0, bytes.data(), bytes.size()))  // it shrank since it was opened
    throw bad_input(path, "cannot be read", "check that nothing writes it meanwhile");
  return bytes;
}

using ZipReader = caffe2::serialize::PyTorchStreamReader;

std::unique_ptr<ZipReader> open_zip(const std::shared_ptr<ArchiveAdapter>& adapter,
                                    const std::string& path) {
  try {
    return std::make_unique<ZipReader>(adapter);
  } catch (
      const std::exception&) {  // c10::Error, or std::invalid_argument for a bad version record
    throw bad_input(path, "is truncated or not a valid zip archive");
  }
}

// Reasons found without unpickling: the archive's entries and the head of data.pkl.
PickleHead check_archive(ZipReader& reader, const std::string& path) {
  std::string data_pkl;
  try {
    if (reader.hasRecord("constants.pkl"))
      throw bad_input(
          path, "is a TorchScript model, not a tensor file",
          "give the model as MODEL, and as --input a tensor saved with torch.save(x, path)");
    if (!reader.hasRecord("data.pkl"))
      throw bad_input(path, "is a zip archive without data.pkl, not a torch.save file");
    auto [data, size] = reader.getRecord("data.pkl");
    data_pkl.assign(static_cast<const char*>(data.get()), size);
  } catch (const c10::Error&) {
    throw bad_input(path, "is truncated or not a valid zip archive");
  }
  PickleOverrun overrun;
  if (find_pickle_overrun(data_pkl, overrun))
    throw bad_input(path, "is damaged: its data.pkl claims " + std::to_string(overrun.claimed) +
                              " bytes at offset " + std::to_string(overrun.at) +
                              " but ends before");
  PickleHead head = read_pickle_head(data_pkl);
  if (head.protocol >= 4)
    throw bad_input(
        path,
        "uses pickle protocol " + std::to_string(head.protocol) + ", which LibTorch cannot read",
        "save it with the default protocol: torch.save(x, path)");
  if (head.global == "collections.OrderedDict")
    throw bad_input(path, "is a state_dict, not input tensors");
  if (head.global == "torch._utils._rebuild_parameter")
    throw bad_input(path, "is an nn.Parameter, which LibTorch cannot read",
                    "save a plain tensor: torch.save(p.detach(), path)");
  if (!head.global.empty() && head.global.rfind("torch._utils.", 0) != 0)
    throw bad_input(path, "is a pickled Python object of class " + head.global +
                              " (e.g. an eager module saved with torch.save(model)), not tensors");
  check_pickle_nesting(data_pkl, path, "input file's data.pkl", kSave);
  return head;
}

// What torch::jit::pickle_load does, through the archive's adapter, each tensor then held to the
// record behind it (files/storage_extents.h).
c10::IValue unpickle(ZipReader& reader, const ArchiveAdapter& adapter, const std::string& path) {
  try {
    c10::IValue value = torch::jit::readArchiveAndTensors("data", "", "", c10::nullopt,
                                                          c10::nullopt, c10::nullopt, reader);
    adapter.verify_unread();
    check_storage_extents(value, adapter.backing(), path);
    return value;
  } catch (const Error&) {
    throw;
  } catch (const c10::Error& e) {
    adapter.throw_if_damaged();
    throw bad_input(path, "cannot be read: " + first_line(e.what_without_backtrace()));
  } catch (const std::exception& e) {  // std::length_error, std::bad_alloc: a huge string length
    throw bad_input(path, std::string("cannot be read: ") + e.what());
  }
}

// The zip's directory, read through the file opened once; a malformed one (miniz would read
// outside the file: tests/fuzz/regressions/) is one clean error.
std::shared_ptr<const Archive> open_archive(const std::string& path,
                                            std::shared_ptr<const ReadOnlyFile> file) {
  try {
    return std::make_shared<const Archive>(Archive::open(path, std::move(file)));
  } catch (const Error&) {
    throw bad_input(path, "is truncated or not a valid zip archive");
  }
}

}  // namespace

InputFile open_input_file(const std::string& path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw bad_input(path, "does not exist", "check the path");
  if (std::filesystem::is_directory(status)) throw bad_input(path, "is a directory");
  require_regular_file(path, "input file");
  auto file = ReadOnlyFile::open(path);
  if (!file) throw bad_input(path, "cannot be read", "check the file's permissions");
  if (file->size() == 0) throw bad_input(path, "is empty");
  const FileKind kind = kind_by_magic(read_bytes(*file, path, 16));
  return {path, std::move(file), kind};
}

std::vector<at::Tensor> saved_tensors(const c10::IValue& value, const std::string& path) {
  if (value.isTensor()) return {value.toTensor()};
  std::vector<at::Tensor> out;
  if (value.isTuple() || value.isList()) {
    for (const auto& item : items_of(value)) {
      if (!item.isTensor())
        throw bad_input(path, std::string("holds a value of type ") + item.tagKind() +
                                  " among its items, not only tensors");
      out.push_back(item.toTensor());
    }
    if (out.empty())
      throw bad_input(path, "holds an empty " + std::string(value.isTuple() ? "tuple" : "list"));
    return out;
  }
  if (value.isGenericDict())
    throw bad_input(
        path, "is a dict; inputs are positional",
        "save the tensors as a tuple in forward's argument order: torch.save((x1, x2), path)");
  throw bad_input(path, std::string("holds a value of type ") + value.tagKind() + ", not tensors");
}

c10::IValue read_saved_value(const InputFile& input) {
  const std::string& path = input.path;
  if (input.kind == FileKind::numpy) return parse_npy(read_bytes(*input.file, path), path);
  if (input.kind == FileKind::legacy_pickle)
    throw bad_input(path, "is a legacy (non-zip) torch.save file, which LibTorch cannot read",
                    "save it again with torch.save(x, path) from PyTorch 1.6 or newer");
  if (input.kind != FileKind::zip)
    throw bad_input(path, "is neither a torch.save file nor a .npy array");
  const std::shared_ptr<const Archive> archive = open_archive(path, input.file);
  auto adapter = std::make_shared<ArchiveAdapter>(archive, true);
  std::unique_ptr<ZipReader> reader = open_zip(adapter, path);
  check_archive(*reader, path);
  // LibTorch's zip reader checks no CRC-32: a damaged byte in the data would pass as a value. The
  // data records are checked as they are read (ArchiveAdapter), the rest here.
  archive->verify_crc(is_data_record);
  return unpickle(*reader, *adapter, path);
}

c10::IValue read_saved_value(const std::string& path) {
  return read_saved_value(open_input_file(path));
}

std::vector<at::Tensor> read_inputs(const std::string& path) {
  return saved_tensors(read_saved_value(path), path);
}

}  // namespace modrec
