// Tells what a file is, from its first bytes (sniff_file: .npy, legacy pickle, zip, safetensors,
// JSON) and, for a zip, from its entries, for JSON from its keys (inspect_file): the one place that
// knows the file formats' magic bytes. A rejection of a model can then say what the file IS and how
// to make a model file modrec reads from it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "files/archive.h"

namespace modrec {

enum class FileKind {
  missing,
  directory,
  special,     // a device, FIFO or socket: never read (util/regular_file.h)
  unreadable,  // exists but cannot be opened
  empty,
  not_zip,           // neither a zip, a legacy torch.save pickle, a .npy nor an ExecuTorch file
  legacy_pickle,     // torch.save(..., _use_new_zipfile_serialization=False)
  numpy,             // a .npy array
  zip,               // starts like a zip archive; its entries not looked at yet (sniff_file only)
  damaged,           // starts like a zip but is truncated or malformed
  torchscript,       // code/ and constants.pkl: torch.jit.save
  exported,          // archive_format "pt2" with a program: torch.export.save (load/pt2/)
  aoti_package,      // archive_format "pt2" with compiled code and no program: AOTInductor's
  executorch,        // an ExecuTorch program (.pte): FlatBuffers with the identifier ET12
  state_dict,        // torch.save(model.state_dict())
  eager_module,      // torch.save(model): a pickled Python object
  tensor_pickle,     // torch.save of a tensor, or a tuple/list/dict of tensors
  other_zip,         // a zip archive without data.pkl
  safetensors,       // 8-byte header length, then the JSON header: a checkpoint (lib/checkpoint/)
  json,              // a JSON text; inspect_file tells an index from any other (json then)
  checkpoint_index,  // JSON with a "weight_map": a sharded checkpoint's index
  // A folder save_pretrained wrote: FileInfo::detail names the checkpoint file in it that
  // from_pretrained reads (one of kPretrainedWeights).
  checkpoint_folder,
};

// An index is small (a name per tensor); a JSON text larger than this is no index.
inline constexpr uint64_t kMaxIndexBytes = uint64_t{1} << 28;

// The files a save_pretrained folder keeps its weights in, in the order transformers'
// from_pretrained looks for them (safetensors first; a sharded checkpoint's index), then the
// names diffusers' models use.
inline constexpr const char* kPretrainedWeights[] = {
    "model.safetensors",
    "model.safetensors.index.json",
    "pytorch_model.bin",
    "pytorch_model.bin.index.json",
    "diffusion_pytorch_model.safetensors",
    "diffusion_pytorch_model.safetensors.index.json",
    "diffusion_pytorch_model.bin",
    "diffusion_pytorch_model.bin.index.json",
};

struct FileInfo {
  FileKind kind = FileKind::missing;
  // eager_module: the pickled class; damaged: what is wrong; special: what; tensor_pickle: what
  // the pickle holds at top level when it tells ("a list"); checkpoint_folder: the checkpoint file
  std::string detail;
  // The zip archive the kind was told from (its file open, its directory read): what the model's
  // loader reads on with, so that a command opens and reads a model file once. Null unless `kind`
  // comes from a zip's entries.
  std::shared_ptr<const Archive> archive;
};

// The kind the first (up to 16) bytes tell: empty, numpy, legacy_pickle, executorch, zip,
// safetensors, json or not_zip.
FileKind kind_by_magic(std::string_view head);
// kind_by_magic of a regular file's first bytes (missing, directory, special, unreadable before).
FileKind sniff_file(const std::string& path);
// sniff_file, then a zip's entries: torchscript, state_dict, ... or damaged; a JSON text's keys:
// checkpoint_index or json; a folder's files: checkpoint_folder or directory. Never zip. The file
// is opened once. A file named as a checkpoint (.safetensors, .index.json) whose bytes tell no
// other kind (empty, cut off, a header that is no JSON object) is that checkpoint, so that its
// reader names what is wrong with it.
FileInfo inspect_file(const std::string& path);

// "is a state_dict, not a TorchScript model", for "model file <...>".
std::string describe(const FileInfo& info);
// What to do to get a TorchScript model from such a file.
std::string model_hint(FileKind kind);
// kPretrainedWeights listed: "model.safetensors, model.safetensors.index.json, ...".
std::string pretrained_weight_names();

// A checkpoint's tensors without the model's code: state_dict, safetensors, checkpoint_index,
// checkpoint_folder.
bool is_checkpoint(FileKind kind);
// A model modrec runs: torchscript, exported, aoti_package, executorch.
bool is_model(FileKind kind);
// Throws Error(bad_input) "model file <path> <describe(info)>" with model_hint's advice: what every
// command that needs a model says of a file that is none.
[[noreturn]] void refuse_model_file(const std::string& path, const FileInfo& info);

}  // namespace modrec
