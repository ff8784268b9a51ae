#include "tensor_files/read_inputs.h"

#include <caffe2/serialize/inline_container.h>
#include <caffe2/serialize/read_adapter_interface.h>
#include <torch/csrc/jit/serialization/import_read.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "load/archive.h"
#include "load/file_kind.h"
#include "load/pickle_head.h"
#include "load/storage_extents.h"
#include "tensor_files/npy.h"
#include "tensor_files/pickle_lengths.h"
#include "util/error.h"
#include "util/regular_file.h"

namespace modrec {

namespace {

const char kSave[] = "save a tensor or a tuple of tensors with torch.save(x, path)";

Error bad_input(const std::string& path, const std::string& what, const std::string& hint = kSave) {
  return Error(Exit::bad_input, "input file " + what, path, hint);
}

std::vector<char> read_file(const std::string& path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) throw bad_input(path, "does not exist", "check the path");
  if (std::filesystem::is_directory(status)) throw bad_input(path, "is a directory");
  require_regular_file(path, "input file");
  std::ifstream in(path, std::ios::binary);
  const auto size = std::filesystem::file_size(path, ec);
  if (!in || ec) throw bad_input(path, "cannot be read", "check the file's permissions");
  // One read of the whole file: an istreambuf_iterator copies it a byte at a time.
  std::vector<char> bytes(size);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  bytes.resize(static_cast<size_t>(in.gcount()));  // shorter if the file shrank meanwhile
  if (bytes.empty()) throw bad_input(path, "is empty");
  return bytes;
}

// The file's bytes for LibTorch's zip reader. LibTorch's MemoryReadAdapter (and the reader inside
// pickle_load, so it is not used either) copies whatever range miniz asks for, and a malformed zip
// makes miniz ask for bytes before the buffer: an out-of-bounds read found by fuzzing
// (tests/fuzz/regressions/). Reading short instead makes miniz report the archive as invalid.
// The memory each data record is read into is noted (RecordReads), for check_storage_extents.
class BoundedReader final : public caffe2::serialize::ReadAdapterInterface {
 public:
  explicit BoundedReader(const std::vector<char>& bytes) : bytes_(bytes) {}
  size_t size() const override { return bytes_.size(); }
  size_t read(uint64_t pos, void* buf, size_t n, const char* /*what*/) const override {
    if (pos >= bytes_.size()) return 0;
    n = std::min<uint64_t>(n, bytes_.size() - pos);
    std::memcpy(buf, bytes_.data() + pos, n);
    if (records_) records_->note(pos, buf, n);
    return n;
  }
  // From now on, reads of `records`' data records are noted there.
  void note_reads(RecordReads& records) { records_ = &records; }

 private:
  const std::vector<char>& bytes_;
  RecordReads* records_ = nullptr;
};

using ZipReader = caffe2::serialize::PyTorchStreamReader;

std::unique_ptr<ZipReader> open_zip(const std::shared_ptr<BoundedReader>& bytes,
                                    const std::string& path) {
  try {
    return std::make_unique<ZipReader>(bytes);
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
  return head;
}

// What torch::jit::pickle_load does, over the bounded reader, each tensor then held to the record
// behind it (load/storage_extents.h).
c10::IValue unpickle(ZipReader& reader, const RecordReads& records, const std::string& path) {
  try {
    c10::IValue value = torch::jit::readArchiveAndTensors("data", "", "", c10::nullopt,
                                                          c10::nullopt, c10::nullopt, reader);
    check_storage_extents(value, records.backing(), path);
    return value;
  } catch (const Error&) {
    throw;
  } catch (const c10::Error& e) {
    throw bad_input(path, "cannot be read: " + first_line(e.what_without_backtrace()));
  } catch (const std::exception& e) {  // std::length_error, std::bad_alloc: a huge string length
    throw bad_input(path, std::string("cannot be read: ") + e.what());
  }
}

}  // namespace

std::vector<at::Tensor> saved_tensors(const c10::IValue& value, const std::string& path) {
  if (value.isTensor()) return {value.toTensor()};
  std::vector<at::Tensor> out;
  if (value.isTuple() || value.isList()) {
    const auto& items =
        value.isTuple() ? value.toTupleRef().elements().vec() : value.toListRef().vec();
    for (const auto& item : items) {
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

c10::IValue read_saved_value(const std::string& path) {
  std::vector<char> bytes = read_file(path);
  const FileKind kind = kind_by_magic(std::string_view(bytes.data(), bytes.size()));
  if (kind == FileKind::numpy) return parse_npy(std::string(bytes.begin(), bytes.end()), path);
  if (kind == FileKind::legacy_pickle)
    throw bad_input(path, "is a legacy (non-zip) torch.save file, which LibTorch cannot read",
                    "save it again with torch.save(x, path) from PyTorch 1.6 or newer");
  if (kind != FileKind::zip) throw bad_input(path, "is neither a torch.save file nor a .npy array");
  auto adapter = std::make_shared<BoundedReader>(bytes);
  std::unique_ptr<ZipReader> reader = open_zip(adapter, path);
  check_archive(*reader, path);
  // LibTorch's zip reader checks no CRC-32: a damaged byte in the data would pass as a value.
  const Archive archive = Archive::open(path);
  archive.verify_crc();
  RecordReads records(archive);
  adapter->note_reads(records);
  return unpickle(*reader, records, path);
}

std::vector<at::Tensor> read_inputs(const std::string& path) {
  return saved_tensors(read_saved_value(path), path);
}

}  // namespace modrec
