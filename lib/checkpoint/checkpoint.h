// A checkpoint: tensors by name without the code of the model they belong to. Read from the
// files' headers and pickles only, never from the tensors' bytes (torch-free):
// - a .safetensors file (8-byte little-endian header length, a JSON header, the data),
// - a sharded checkpoint's index (model.safetensors.index.json, pytorch_model.bin.index.json:
//   "weight_map" from tensor name to shard file),
// - a torch.save of a state_dict (a zip archive: data.pkl, data/<storage>), or of a dict holding
//   state_dicts (a training checkpoint: their tensors named "model.fc.weight").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "files/dtypes.h"
#include "files/file_kind.h"

namespace modrec {

struct CheckpointTensor {
  std::string name;  // "encoder.layers.0.weight"
  DType dtype = DType::float32;
  std::vector<int64_t> shape;
  int file = 0;         // index in Checkpoint::files
  uint64_t offset = 0;  // of its first byte in that file
  uint64_t bytes = 0;   // numel * element size
  // false for a view stored with strides (torch.save of a non-contiguous tensor): its bytes are
  // not numel consecutive elements, so check and diff refuse it.
  bool contiguous = true;
  // The tensor subclass it is an inner tensor of ("torchao.quantization.Int8Tensor": its qdata,
  // scale or zero_point, named "fc1.weight.qdata"); "" for a plain tensor.
  std::string subclass;

  int64_t numel() const;
  // The name's last part, its own under its module: "weight".
  std::string leaf() const;
};

enum class CheckpointFormat { safetensors, torch_save, sharded };

// A tensor subclass a torch.save'd dict holds (torchao's quantized weights): the tensor it
// stands for, its data its inner tensors, which are Checkpoint::tensors named "<name>.<inner>".
struct CheckpointSubclass {
  std::string name;  // "fc1.weight"
  std::string type;  // "torchao.quantization.Int8Tensor"
  DType dtype = DType::float32;
  std::vector<int64_t> shape;
};

struct Checkpoint {
  std::string path;  // as given
  CheckpointFormat format = CheckpointFormat::safetensors;
  std::vector<std::string> files;  // the files holding the tensors' bytes (the shards)
  std::vector<CheckpointTensor> tensors;
  std::vector<CheckpointSubclass> subclasses;
  // The tensors the files hold (every header entry, every tensor of a pickle): what check and diff
  // say they covered out of.
  size_t held = 0;
  nlohmann::json metadata = nlohmann::json::object();  // safetensors' __metadata__, an index's
};

// `file` is inspect_file(path)'s, of a kind is_checkpoint (files/file_kind.h) accepts. Throws
// Error(bad_input) naming the file (and the tensor) when a header, pickle or index is malformed, a
// tensor's bytes lie outside its file or overlap another's, a dtype is unknown, or a shard is
// missing.
Checkpoint read_checkpoint(const std::string& path, const FileInfo& file);
Checkpoint read_checkpoint(const std::string& path);

const char* format_name(CheckpointFormat format);  // "safetensors", "torch.save", "sharded"

}  // namespace modrec
