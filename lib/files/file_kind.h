// Tells what a file is, from its first bytes (sniff_file: .npy, legacy pickle, zip, safetensors,
// JSON) and, for a zip, from its entries, for JSON from its keys (inspect_file): the one place that
// knows the file formats' magic bytes. A rejection of a model can then say what the file IS and how
// to make a model file modrec reads from it.
#pragma once
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
};

struct FileInfo {
  FileKind kind = FileKind::missing;
  std::string detail;  // eager_module: the pickled class; damaged: what is wrong; special: what
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
// checkpoint_index or json. Never zip. The file is opened once.
FileInfo inspect_file(const std::string& path);

// "is a state_dict, not a TorchScript model", for "model file <...>".
std::string describe(const FileInfo& info);
// What to do to get a TorchScript model from such a file.
std::string model_hint(FileKind kind);
// A checkpoint's tensors without the model's code: state_dict, safetensors, checkpoint_index.
bool is_checkpoint(FileKind kind);

}  // namespace modrec
