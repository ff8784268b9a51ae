#include "tensors/read_inputs.h"

#include <caffe2/serialize/in_memory_adapter.h>
#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <filesystem>
#include <fstream>

#include "load/pickle_head.h"
#include "tensors/npy.h"
#include "util/error.h"

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
  std::ifstream in(path, std::ios::binary);
  if (!in) throw bad_input(path, "cannot be read", "check the file's permissions");
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.empty()) throw bad_input(path, "is empty");
  return bytes;
}

// Reasons found without unpickling: the archive's entries and the head of data.pkl.
PickleHead check_archive(const std::vector<char>& bytes, const std::string& path) {
  std::string data_pkl;
  try {
    caffe2::serialize::PyTorchStreamReader reader(
        std::make_shared<caffe2::serialize::MemoryReadAdapter>(bytes.data(), bytes.size()));
    if (reader.hasRecord("constants.pkl"))
      throw bad_input(path, "is a TorchScript model, not a tensor file",
                      "give the model as MODEL, and as --input a tensor saved with torch.save(x, path)");
    if (!reader.hasRecord("data.pkl")) throw bad_input(path, "is a zip archive without data.pkl, not a torch.save file");
    auto [data, size] = reader.getRecord("data.pkl");
    data_pkl.assign(static_cast<const char*>(data.get()), size);
  } catch (const c10::Error&) {
    throw bad_input(path, "is truncated or not a valid zip archive");
  }
  PickleHead head = read_pickle_head(data_pkl);
  if (head.protocol >= 4)
    throw bad_input(path, "uses pickle protocol " + std::to_string(head.protocol) + ", which LibTorch 1.13 cannot read",
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

c10::IValue unpickle(const std::vector<char>& bytes, const PickleHead& head, const std::string& path) {
  try {
    return torch::jit::pickle_load(bytes);
  } catch (const c10::Error& e) {
    if (head.first_op == ']')
      throw bad_input(path, "is a one-element list, which LibTorch 1.13 cannot read",
                      "save the tensor itself, or a tuple: torch.save(x, path)");
    if (head.first_op == '}')
      throw bad_input(path, "is a one-key dict, which LibTorch 1.13 cannot read");
    throw bad_input(path, "cannot be read: " + first_line(e.what_without_backtrace()));
  }
}

std::vector<at::Tensor> tensors_of(const c10::IValue& value, const std::string& path) {
  if (value.isTensor()) return {value.toTensor()};
  std::vector<at::Tensor> out;
  if (value.isTuple() || value.isList()) {
    const auto& items = value.isTuple() ? value.toTupleRef().elements().vec() : value.toListRef().vec();
    for (const auto& item : items) {
      if (!item.isTensor())
        throw bad_input(path, std::string("holds a value of type ") + item.tagKind() + " among its items, not only tensors");
      out.push_back(item.toTensor());
    }
    if (out.empty()) throw bad_input(path, "holds an empty " + std::string(value.isTuple() ? "tuple" : "list"));
    return out;
  }
  if (value.isGenericDict())
    throw bad_input(path, "is a dict; inputs are positional",
                    "save the tensors as a tuple in forward's argument order: torch.save((x1, x2), path)");
  throw bad_input(path, std::string("holds a value of type ") + value.tagKind() + ", not tensors");
}

}  // namespace

std::vector<at::Tensor> read_inputs(const std::string& path) {
  std::vector<char> bytes = read_file(path);
  std::string head(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min<size_t>(bytes.size(), 6)));
  if (head == "\x93NUMPY") return {parse_npy(std::string(bytes.begin(), bytes.end()), path)};
  if (static_cast<unsigned char>(head[0]) == 0x80)
    throw bad_input(path, "is a legacy (non-zip) torch.save file, which LibTorch cannot read",
                    "save it again with torch.save(x, path) from PyTorch 1.6 or newer");
  if (head.rfind("PK\x03\x04", 0) != 0)
    throw bad_input(path, "is neither a torch.save file nor a .npy array");
  PickleHead pickle = check_archive(bytes, path);
  return tensors_of(unpickle(bytes, pickle, path), path);
}

}  // namespace modrec
